// bench/README.md shows the newest full run's tables between two markers, so a reader finds the
// last figures measured, with their date and load, instead of figures pasted by hand and left to
// go stale. Only the text between the markers changes; the method around it is hand-written.
import { readFileSync, writeFileSync } from 'node:fs';

export const LATEST_START = '<!-- bench:latest:start -->';
export const LATEST_END = '<!-- bench:latest:end -->';

/** `readme` with what lies between the markers replaced by `block`. Throws when a marker is missing. */
export function replaceLatestTable(readme: string, block: string): string {
  const start = readme.indexOf(LATEST_START);
  const end = readme.indexOf(LATEST_END);
  if (start < 0 || end < start) throw new Error(`bench/README.md must hold ${LATEST_START} and, after it, ${LATEST_END}`);
  return `${readme.slice(0, start + LATEST_START.length)}\n\n${block.trim()}\n\n${readme.slice(end)}`;
}

/** Rewrites the README file in place with `block` between its markers. */
export function writeLatestTable(file: string, block: string): void {
  writeFileSync(file, replaceLatestTable(readFileSync(file, 'utf8'), block));
}
