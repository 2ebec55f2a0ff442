// The kubectl matrix (kubectl-matrix.ts) for every fourth kubectl, from the 3rd: one of the files the
// matrix is split in, so that jest's workers share it out.
import { describeKubectlMatrix } from './kubectl-matrix';

describeKubectlMatrix({ part: 3, of: 4 });
