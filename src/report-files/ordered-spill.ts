import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { RecordOutcome } from '../sync/outcome.js';

/** Report order: files by name (the order a run reads them, see sources/glob.ts), then line. */
export function reportOrder(a: RecordOutcome, b: RecordOutcome): number {
  return a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1;
}

/** A sorted run: byte ranges of the spill file, read one after the other, and its last outcome. */
interface SortedRun {
  segments: { start: number; end: number }[];
  last: RecordOutcome;
}

/**
 * Puts outcomes that arrive out of order (chunks finish in any order; rejected rows are flushed
 * in batches of their own) back into report order with bounded memory: each batch is sorted and
 * appended to a spill file, extending the sorted run it can follow (the one with the greatest
 * last outcome before the batch's first, as in patience sorting), and the runs are merged at the
 * end, k-way, reading each run through a small buffer. Chunks finishing out of order within a
 * window of `concurrency` make about that many runs; in-order arrival makes one. Memory: one batch
 * plus one buffer per run, never the whole report.
 */
export class OrderedSpill {
  private readonly out: WriteStream;
  private readonly runs: SortedRun[] = [];
  private offset = 0;

  constructor(private readonly path: string) {
    this.out = createWriteStream(path);
  }

  async add(outcomes: readonly RecordOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    const sorted = [...outcomes].sort(reportOrder);
    const text = sorted.map((o) => `${JSON.stringify(o)}\n`).join('');
    const first = sorted[0] as RecordOutcome;
    const last = sorted[sorted.length - 1] as RecordOutcome;
    const segment = { start: this.offset, end: this.offset + Buffer.byteLength(text) };
    this.offset = segment.end;
    let follows: SortedRun | undefined;
    for (const run of this.runs)
      if (reportOrder(run.last, first) < 0 && (!follows || reportOrder(follows.last, run.last) < 0))
        follows = run;
    if (follows) {
      follows.segments.push(segment);
      follows.last = last;
    } else this.runs.push({ segments: [segment], last });
    if (!this.out.write(text)) await once(this.out, 'drain');
  }

  /** Every outcome added, in report order; the spill file is removed afterwards. */
  async *drain(): AsyncGenerator<RecordOutcome> {
    await new Promise<void>((resolve, reject) => {
      this.out.once('error', reject);
      this.out.end(resolve);
    });
    try {
      const heads: { value: RecordOutcome; rest: AsyncIterator<RecordOutcome> }[] = [];
      for (const run of this.runs) {
        const rest = readRun(this.path, run)[Symbol.asyncIterator]();
        const next = await rest.next();
        if (!next.done) heads.push({ value: next.value, rest });
      }
      const heap = new MinHeap(heads, (a, b) => reportOrder(a.value, b.value));
      for (let top = heap.peek(); top; top = heap.peek()) {
        yield top.value;
        const next = await top.rest.next();
        if (next.done) heap.pop();
        else {
          top.value = next.value;
          heap.siftDownTop();
        }
      }
    } finally {
      await rm(this.path, { force: true });
    }
  }
}

/** The outcomes of one sorted run of the spill file, read through a 16 KiB buffer. */
async function* readRun(path: string, run: SortedRun): AsyncGenerator<RecordOutcome> {
  for (const { start, end } of run.segments) {
    let carry = '';
    for await (const chunk of createReadStream(path, {
      start,
      end: end - 1,
      encoding: 'utf8',
      highWaterMark: 16 * 1024,
    })) {
      const lines = (carry + (chunk as string)).split('\n');
      carry = lines.pop() ?? '';
      for (const line of lines) if (line) yield JSON.parse(line) as RecordOutcome;
    }
    if (carry) yield JSON.parse(carry) as RecordOutcome;
  }
}

/** A binary min-heap; the merge replaces the top in place and sifts it down. */
class MinHeap<T> {
  private readonly items: T[];

  constructor(
    items: T[],
    private readonly less: (a: T, b: T) => number,
  ) {
    this.items = items;
    for (let i = Math.floor(items.length / 2) - 1; i >= 0; i--) this.siftDown(i);
  }

  peek(): T | undefined {
    return this.items[0];
  }

  pop(): void {
    const last = this.items.pop();
    if (this.items.length > 0 && last !== undefined) {
      this.items[0] = last;
      this.siftDown(0);
    }
  }

  siftDownTop(): void {
    this.siftDown(0);
  }

  private siftDown(at: number): void {
    const { items } = this;
    let i = at;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let min = i;
      if (l < items.length && this.less(items[l] as T, items[min] as T) < 0) min = l;
      if (r < items.length && this.less(items[r] as T, items[min] as T) < 0) min = r;
      if (min === i) return;
      [items[i], items[min]] = [items[min] as T, items[i] as T];
      i = min;
    }
  }
}
