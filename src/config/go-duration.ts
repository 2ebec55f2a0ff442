// Go's time.ParseDuration, for flags kube-apiserver takes as durations (`--event-ttl 1h`, `90s`,
// `1h30m`, `1.5h`, `500ms`): a sequence of decimal numbers, each with a unit (ns, us, µs, ms, s,
// m, h). Returns milliseconds (sub-millisecond parts are dropped), or undefined when the text is
// not a duration Go would accept.
const UNIT_MS: Readonly<Record<string, number>> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export function parseGoDuration(text: string): number | undefined {
  let rest = text;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1 : 1;
    rest = rest.slice(1);
  }
  // "0" alone is the one unitless duration Go accepts.
  if (rest === '0') return 0;
  if (rest === '') return undefined;
  let ms = 0;
  while (rest !== '') {
    const match = /^(\d*\.?\d*)(ns|us|µs|μs|ms|s|m|h)/.exec(rest);
    if (!match || match[1] === '' || match[1] === '.') return undefined;
    ms += Number(match[1]) * UNIT_MS[match[2]];
    rest = rest.slice(match[0].length);
  }
  return sign * Math.floor(ms);
}
