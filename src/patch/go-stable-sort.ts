// Go's sort.SliceStable (sort/zsortfunc.go: stable_func, insertionSort_func, symMerge_func,
// rotate_func), ported step for step. strategicpatch.normalizeSliceOrder sorts with a `less`
// that is not a strict weak order (it answers true for any item missing from the order list), so
// the result depends on the exact comparisons and swaps Go performs; a different stable sort
// would order lists differently.

type Less = (i: number, j: number) => boolean;

function swap<T>(data: T[], i: number, j: number): void {
  const tmp = data[i];
  data[i] = data[j];
  data[j] = tmp;
}

function insertionSort<T>(data: T[], less: Less, a: number, b: number): void {
  for (let i = a + 1; i < b; i++) {
    for (let j = i; j > a && less(j, j - 1); j--) swap(data, j, j - 1);
  }
}

function swapRange<T>(data: T[], a: number, b: number, n: number): void {
  for (let i = 0; i < n; i++) swap(data, a + i, b + i);
}

function rotate<T>(data: T[], a: number, m: number, b: number): void {
  let i = m - a;
  let j = b - m;
  while (i !== j) {
    if (i > j) {
      swapRange(data, m - i, m, j);
      i -= j;
    } else {
      swapRange(data, m - i, m + j - i, i);
      j -= i;
    }
  }
  swapRange(data, m - i, m, i);
}

function symMerge<T>(data: T[], less: Less, a: number, m: number, b: number): void {
  if (m - a === 1) {
    let i = m;
    let j = b;
    while (i < j) {
      const h = (i + j) >>> 1;
      if (less(h, a)) i = h + 1;
      else j = h;
    }
    for (let k = a; k < i - 1; k++) swap(data, k, k + 1);
    return;
  }
  if (b - m === 1) {
    let i = a;
    let j = m;
    while (i < j) {
      const h = (i + j) >>> 1;
      if (!less(m, h)) i = h + 1;
      else j = h;
    }
    for (let k = m; k > i; k--) swap(data, k, k - 1);
    return;
  }
  const mid = (a + b) >>> 1;
  const n = mid + m;
  let start: number;
  let r: number;
  if (m > mid) {
    start = n - b;
    r = mid;
  } else {
    start = a;
    r = m;
  }
  const p = n - 1;
  while (start < r) {
    const c = (start + r) >>> 1;
    if (!less(p - c, c)) start = c + 1;
    else r = c;
  }
  const end = n - start;
  if (start < m && m < end) rotate(data, start, m, end);
  if (a < start && start < mid) symMerge(data, less, a, start, mid);
  if (mid < end && end < b) symMerge(data, less, mid, end, b);
}

/** sort.SliceStable(data, less): sorts in place; `less` indexes the slice as it is being sorted. */
export function goSliceStable<T>(data: T[], less: Less): void {
  const n = data.length;
  let blockSize = 20;
  let a = 0;
  let b = blockSize;
  while (b <= n) {
    insertionSort(data, less, a, b);
    a = b;
    b += blockSize;
  }
  insertionSort(data, less, a, n);
  while (blockSize < n) {
    a = 0;
    b = 2 * blockSize;
    while (b <= n) {
      symMerge(data, less, a, a + blockSize, b);
      a = b;
      b += 2 * blockSize;
    }
    const m = a + blockSize;
    if (m < n) symMerge(data, less, a, m, n);
    blockSize *= 2;
  }
}
