import { createReadStream } from 'node:fs';

/** Counts line breaks of a file quickly (no parsing): the ETA's estimate of the records to come. */
export async function countLines(path: string): Promise<number> {
  let lines = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>) {
    let at = chunk.indexOf(10);
    while (at !== -1) {
      lines++;
      at = chunk.indexOf(10, at + 1);
    }
  }
  return lines;
}

/** A one-line progress bar on a TTY: records done/total, records/s and ETA, redrawn at most 10 times a second. */
export class ProgressBar {
  private done = 0;
  private lastDraw = 0;
  private readonly started = Date.now();

  constructor(
    private readonly out: NodeJS.WriteStream,
    private total: number,
  ) {}

  addTotal(n: number): void {
    this.total += n;
  }

  advance(n: number): void {
    this.done += n;
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
    const rate = this.done / seconds;
    const total = Math.max(this.total, this.done);
    const share = total ? this.done / total : 1;
    const width = 24;
    const filled = Math.round(share * width);
    const eta = rate > 0 ? Math.max(0, (total - this.done) / rate) : 0;
    this.out.write(
      `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${this.done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} records  ${Math.round(rate).toLocaleString('en-US')}/s  ETA ${eta.toFixed(0)}s `,
    );
  }
}
