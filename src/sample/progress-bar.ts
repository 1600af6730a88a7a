/**
 * ProgressBar: rows done out of a total, with rate and ETA, on a stream (stderr). On a TTY one line is
 * redrawn in place (at most every 100 ms); elsewhere (logs, CI, pipes) a plain line is printed at each
 * 10 % step and at each phase change, so logs stay short.
 */

export interface ProgressStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

const WIDTH = 28;
const REDRAW_MS = 100;

const thousands = (n: number): string => Math.round(n).toLocaleString('en-US');

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)}s`;
  const m = Math.floor(seconds / 60);
  return `${m}m${String(Math.round(seconds - m * 60)).padStart(2, '0')}s`;
}

export class ProgressBar {
  private done = 0;
  private phase = '';
  private readonly started: number;
  private lastDraw = 0;
  private lastStep = -1;
  private finished = false;

  constructor(
    private total: number,
    private readonly stream: ProgressStream = process.stderr,
    private readonly now: () => number = Date.now,
  ) {
    this.started = now();
  }

  /** what is being done now (`orders: writing Parquet`); plain output prints a line per phase */
  setPhase(phase: string): void {
    if (phase === this.phase) return;
    this.phase = phase;
    if (this.stream.isTTY === true) this.draw(true);
    else this.stream.write(`${this.line()}\n`);
  }

  /** the total was an estimate and is now known */
  setTotal(total: number): void {
    this.total = total;
  }

  add(rows: number): void {
    this.done += rows;
    if (this.stream.isTTY === true) {
      this.draw(false);
      return;
    }
    const step = Math.floor((10 * this.done) / Math.max(1, this.total));
    if (step > this.lastStep && step < 10) {
      this.lastStep = step;
      if (step > 0) this.stream.write(`${this.line()}\n`);
    }
  }

  /** final line (the TTY line is ended with a newline) */
  finish(message?: string): void {
    if (this.finished) return;
    this.finished = true;
    this.phase = message ?? 'done';
    if (this.stream.isTTY === true) {
      this.draw(true);
      this.stream.write('\n');
    } else {
      this.stream.write(`${this.line()}\n`);
    }
  }

  line(): string {
    const elapsed = (this.now() - this.started) / 1000;
    const fraction = this.total > 0 ? Math.min(1, this.done / this.total) : 1;
    const rate = elapsed > 0 ? this.done / elapsed : 0;
    const eta = rate > 0 ? Math.max(0, this.total - this.done) / rate : Infinity;
    const pct = `${Math.floor(fraction * 100)}%`.padStart(4);
    const tail = this.finished ? `in ${formatDuration(elapsed)}` : `ETA ${formatDuration(eta)}`;
    const head = this.stream.isTTY === true ? `[${'#'.repeat(Math.round(fraction * WIDTH)).padEnd(WIDTH, '.')}] ` : '';
    return `${head}${pct} ${thousands(this.done)}/${thousands(this.total)} rows  ${thousands(rate)} rows/s  ${tail}  ${this.phase}`;
  }

  private draw(force: boolean): void {
    const t = this.now();
    if (!force && t - this.lastDraw < REDRAW_MS) return;
    this.lastDraw = t;
    // a pseudo-terminal may report 0 columns
    const width = (this.stream.columns ?? 0) >= 40 ? this.stream.columns! - 1 : 119;
    this.stream.write(`\r${this.line().slice(0, width).padEnd(width)}`);
  }
}
