import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { RecordOutcome } from '../sync/outcome.js';
import { OrderedSpill, reportOrder } from './ordered-spill.js';
import { closeStream, write } from './stream-write.js';

/** How the lines of one outcome are written: one text per output file. */
export interface LineFormat {
  /** The first line of each output (a CSV header, or '' for none). */
  headers: readonly string[];
  lines(o: RecordOutcome): readonly string[];
  /** An outcome back from its line in output `parseFrom` (only on the rare merge path). */
  parseFrom: number;
  parse(line: string): RecordOutcome;
}

/**
 * Outcomes held back until this many wait: chunks in flight finish out of order, but only within
 * the few thousand records in flight (none arrived late at concurrency 2 or 8 on 300,000 rows), so
 * this window lets nearly every outcome go straight to the report files in order. Its memory is
 * that of up to twice as many outcomes (~1 MB); a larger window held outcomes long enough to reach
 * the old generation and raised peak RSS.
 */
const WINDOW = 4_000;

/**
 * Writes outcomes to report files in report order (files by name, then line) as they arrive
 * almost in order. The smallest outcomes of a window are formatted and written to the outputs'
 * `.part` files at once, so the common case formats each outcome once and never reads it back.
 * An outcome that arrives after a greater one was written ("late") goes to an OrderedSpill
 * instead; only when there are late ones does `finish` merge them with what was written, reading
 * it back. Memory: the window plus the spill's buffers, never the whole report.
 */
export class OrderedLines {
  private readonly parts: WriteStream[];
  private window: RecordOutcome[] = [];
  private lastWritten: RecordOutcome | undefined;
  private late: OrderedSpill | undefined;

  constructor(
    private readonly outputs: readonly string[],
    private readonly format: LineFormat,
    private readonly spillPath: string,
    private readonly windowSize = WINDOW,
  ) {
    // The headers first: a stream buffers them until its file is open.
    this.parts = outputs.map((path, i) => {
      const part = createWriteStream(`${path}.part`);
      part.write(format.headers[i] ?? '');
      return part;
    });
  }

  async add(outcomes: readonly RecordOutcome[]): Promise<void> {
    const last = this.lastWritten;
    const late: RecordOutcome[] = [];
    for (const o of outcomes)
      if (last && reportOrder(o, last) < 0) late.push(o);
      else this.window.push(o);
    if (late.length > 0) {
      this.late ??= new OrderedSpill(this.spillPath);
      await this.late.add(late);
    }
    if (this.window.length >= 2 * this.windowSize) {
      this.window.sort(reportOrder);
      const ready = this.window.slice(0, this.window.length - this.windowSize);
      this.window = this.window.slice(ready.length);
      await this.writeParts(ready);
    }
  }

  /** Writes what waits, merges late outcomes in when there were any, and moves the files in place. */
  async finish(): Promise<void> {
    this.window.sort(reportOrder);
    await this.writeParts(this.window);
    this.window = [];
    await Promise.all(this.parts.map(closeStream));
    const parts = this.outputs.map((path) => `${path}.part`);
    if (!this.late) {
      await Promise.all(this.outputs.map((path, i) => rename(parts[i] as string, path)));
      return;
    }
    try {
      await this.merge(parts[this.format.parseFrom] as string, this.late);
    } finally {
      await Promise.all(parts.map((part) => rm(part, { force: true })));
    }
  }

  private async writeParts(outcomes: readonly RecordOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    await writeLines(this.parts, this.format, outcomes);
    this.lastWritten = outcomes[outcomes.length - 1];
  }

  /** The written part, read back, and the late outcomes, merged into the final outputs. */
  private async merge(written: string, late: OrderedSpill): Promise<void> {
    const outs = this.outputs.map((path) => createWriteStream(path));
    await Promise.all(outs.map((s, i) => write(s, this.format.headers[i] ?? '')));
    const fromPart = readOutcomes(written, this.format)[Symbol.asyncIterator]();
    const fromLate = late.drain()[Symbol.asyncIterator]();
    let a = await fromPart.next();
    let b = await fromLate.next();
    let batch: RecordOutcome[] = [];
    while (!a.done || !b.done) {
      if (!a.done && (b.done || reportOrder(a.value, b.value) <= 0)) {
        batch.push(a.value);
        a = await fromPart.next();
      } else if (!b.done) {
        batch.push(b.value);
        b = await fromLate.next();
      }
      if (batch.length >= 1000) {
        await writeLines(outs, this.format, batch);
        batch = [];
      }
    }
    await writeLines(outs, this.format, batch);
    await Promise.all(outs.map(closeStream));
  }
}

/** The outcomes' lines, joined per output: a flat string per write, not one call per record. */
async function writeLines(
  streams: readonly WriteStream[],
  format: LineFormat,
  outcomes: readonly RecordOutcome[],
): Promise<void> {
  const texts = streams.map(() => '');
  for (let start = 0; start < outcomes.length; start += 1000) {
    for (let i = 0; i < texts.length; i++) texts[i] = '';
    const end = Math.min(outcomes.length, start + 1000);
    for (let k = start; k < end; k++) {
      const lines = format.lines(outcomes[k] as RecordOutcome);
      for (let i = 0; i < texts.length; i++) texts[i] += lines[i] as string;
    }
    await Promise.all(streams.map((s, i) => write(s, texts[i] as string)));
  }
}

async function* readOutcomes(path: string, format: LineFormat): AsyncGenerator<RecordOutcome> {
  const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
  let first = format.headers[format.parseFrom] !== '';
  for await (const line of lines) {
    if (first) first = false;
    else if (line) yield format.parse(line);
  }
}
