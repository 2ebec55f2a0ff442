// A progress bar on stderr for long runs: phase, bar, count, rate and ETA, redrawn at most ten
// times a second. Only on a TTY; otherwise (pipes, CI logs, tests) one summary line per phase.
import type { Progress } from '../maintenance/progress';

interface Output {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

const REDRAW_MS = 100;
const BAR_WIDTH = 24;

export class ProgressBar implements Progress {
  private phase = '';
  private unit = '';
  private total: number | undefined;
  private count = 0;
  private started = 0;
  private drawn = 0;

  constructor(
    private readonly output: Output = process.stderr,
    private readonly now: () => number = () => performance.now(),
  ) {}

  start(phase: string, total: number | undefined, unit: string): void {
    this.phase = phase;
    this.total = total;
    this.unit = unit;
    this.count = 0;
    this.started = this.now();
    this.drawn = 0;
    this.draw();
  }

  advance(units: number): void {
    this.count += units;
    if (this.output.isTTY && this.now() - this.drawn >= REDRAW_MS) this.draw();
  }

  done(): void {
    const seconds = Math.max((this.now() - this.started) / 1000, 1e-6);
    const line = `${this.phase}: ${formatCount(this.count)} ${this.unit} in ${formatSeconds(seconds)} (${formatCount(Math.round(this.count / seconds))} ${this.unit}/s)`;
    this.output.write(this.output.isTTY ? `\r\x1b[2K${line}\n` : `${line}\n`);
  }

  /** The bar as text (exported for tests through `render`). */
  render(): string {
    const seconds = (this.now() - this.started) / 1000;
    const rate = seconds > 0 ? this.count / seconds : 0;
    const rateText = `${formatCount(Math.round(rate))} ${this.unit}/s`;
    if (!this.total) return `${this.phase} ${formatCount(this.count)} ${this.unit}  ${rateText}`;
    const fraction = Math.min(this.count / this.total, 1);
    const filled = Math.round(fraction * BAR_WIDTH);
    const eta = rate > 0 ? formatSeconds((this.total - this.count) / rate) : '?';
    return `${this.phase} [${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${Math.floor(fraction * 100)}% ${formatCount(this.count)}/${formatCount(this.total)} ${this.unit}  ${rateText}  ETA ${eta}`;
  }

  private draw(): void {
    if (!this.output.isTTY) return;
    this.drawn = this.now();
    const text = this.render();
    const width = this.output.columns ?? 100;
    this.output.write(`\r\x1b[2K${text.length >= width ? text.slice(0, width - 1) : text}`);
  }
}

function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

function formatSeconds(seconds: number): string {
  if (seconds < 10) return `${seconds.toFixed(1)}s`;
  if (seconds < 120) return `${Math.round(seconds)}s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes}m${String(Math.round(seconds % 60)).padStart(2, '0')}s`;
}
