/** What a sync has done since the last call: records settled, bytes of its exports read. */
export interface ProgressDelta {
  records: number;
  bytes: number;
}

/**
 * A one-line progress bar on a TTY: bytes of the exports read of their total (the bar and the
 * ETA), records settled and records/s, redrawn at most 10 times a second. Bytes rather than
 * records: the total is known from the files' sizes without reading them, for every format.
 */
export class ProgressBar {
  private records = 0;
  private bytes = 0;
  private lastDraw = 0;
  private readonly started = Date.now();

  constructor(
    private readonly out: NodeJS.WriteStream,
    private totalBytes: number,
  ) {}

  addTotal(bytes: number): void {
    this.totalBytes += bytes;
  }

  advance(delta: ProgressDelta): void {
    this.records += delta.records;
    this.bytes += delta.bytes;
    const now = Date.now();
    if (now - this.lastDraw >= 100) this.draw(now);
  }

  finish(): void {
    this.draw(Date.now());
    this.out.write('\n');
  }

  private draw(now: number): void {
    this.lastDraw = now;
    const seconds = Math.max((now - this.started) / 1000, 0.001);
    const total = Math.max(this.totalBytes, this.bytes);
    const share = total ? this.bytes / total : 1;
    const width = 24;
    const filled = Math.round(share * width);
    const byteRate = this.bytes / seconds;
    const eta = byteRate > 0 ? Math.max(0, (total - this.bytes) / byteRate) : 0;
    this.out.write(
      `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${size(this.bytes)}/${size(total)}  ${this.records.toLocaleString('en-US')} records  ${Math.round(this.records / seconds).toLocaleString('en-US')}/s  ETA ${eta.toFixed(0)}s `,
    );
  }
}

const UNITS = ['KB', 'MB', 'GB', 'TB'];

/** A byte count for people: 512 B, 1.5 KB, 12.0 MB (units of 1024). */
export function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${UNITS[unit]}`;
}
