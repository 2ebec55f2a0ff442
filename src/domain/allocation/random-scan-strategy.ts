// The bitmap search of kubernetes pkg/registry/core/service/allocator/bitmap.go
// (randomScanStrategyWithOffset): offsets [0, offset) are a "static" band kept for
// user-requested values; random allocation starts at a random point of the upper band
// [offset, max) and scans forward (wrapping inside the band), and only when that band is
// full does it scan the lower band the same way.

/** Go's rand.Intn(n) over an injected source in [0, 1). */
export function randomIntn(random: () => number, n: number): number {
  const v = Math.floor(random() * n);
  return v >= n ? n - 1 : v < 0 ? 0 : v;
}

/**
 * Returns a free offset in [0, max), or null when every offset is taken.
 * `isTaken(offset)` reports the bitmap bit.
 */
export function randomScanWithOffset(max: number, offset: number, isTaken: (offset: number) => boolean, random: () => number): number | null {
  if (max <= 0) return null;
  // The static band is always smaller than the bitmap (calculateRangeOffset guarantees it).
  const band = offset < max ? offset : 0;
  const subrangeMax = max - band;
  let start = randomIntn(random, subrangeMax);
  for (let i = 0; i < subrangeMax; i++) {
    const at = band + ((start + i) % subrangeMax);
    if (!isTaken(at)) return at;
  }
  if (band > 0) {
    start = randomIntn(random, band);
    for (let i = 0; i < band; i++) {
      const at = (start + i) % band;
      if (!isTaken(at)) return at;
    }
  }
  return null;
}
