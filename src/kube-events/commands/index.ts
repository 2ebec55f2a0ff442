import { CreateKubeEventHandler } from './create-kube-event.handler';
import { DeleteKubeEventHandler } from './delete-kube-event.handler';
import { PatchKubeEventHandler } from './patch-kube-event.handler';
import { ReplaceKubeEventHandler } from './replace-kube-event.handler';

export const KubeEventCommandHandlers = [CreateKubeEventHandler, ReplaceKubeEventHandler, PatchKubeEventHandler, DeleteKubeEventHandler];
