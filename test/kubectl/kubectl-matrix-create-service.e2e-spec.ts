// The kubectl matrix (kubectl-matrix.ts): `kubectl create service` with every kubectl, then the
// objects made by JSON bodies (kubectl ≤ 1.31) and protobuf bodies (≥ 1.32) compared.
import { describeKubectlMatrix } from './kubectl-matrix';

describeKubectlMatrix('create service');
