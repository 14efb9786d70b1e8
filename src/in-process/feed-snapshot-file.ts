import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';
import { readIfWritten, writeFileAtomic } from '../report-files/atomic-file.js';

/**
 * One JSON file of a value per feed beside the reports (`.feed-identity.json`, `.feed-cursor.json`),
 * written atomically and one write at a time (the feeds of one sync share it). A file that cannot
 * be parsed is an error naming it, never a fresh start: what it keeps decides what a run does.
 */
export class FeedSnapshotFile<V> {
  #last: Promise<unknown> = Promise.resolve();

  constructor(
    readonly path: string,
    private readonly value: z.ZodType<V>,
    /** What the file holds, for its error: "identity settings". */
    private readonly what: string,
  ) {}

  /** Every feed's value; {} when there is no file yet. */
  async read(): Promise<Record<string, V>> {
    const unreadable = (why: string) =>
      new Error(`${this.path} is not a valid ${this.what} file (${why}); fix or remove it`);
    const text = await readIfWritten(this.path);
    if (text === undefined) return {};
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw unreadable((error as Error).message);
    }
    if (typeof json !== 'object' || json === null || Array.isArray(json)) throw unreadable('not an object');
    const snapshot: Record<string, V> = {};
    for (const [feed, entry] of Object.entries(json)) {
      const parsed = this.value.safeParse(entry);
      if (!parsed.success) throw unreadable(`${feed}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      snapshot[feed] = parsed.data;
    }
    return snapshot;
  }

  /** Sets the feed's value (nothing written when it is already the value). */
  put(feed: string, value: V): Promise<void> {
    const next = this.#last.then(async () => {
      const snapshot = await this.read();
      if (isDeepStrictEqual(snapshot[feed], value)) return;
      snapshot[feed] = value;
      await mkdir(dirname(this.path), { recursive: true });
      await writeFileAtomic(this.path, `${JSON.stringify(snapshot, null, 2)}\n`);
    });
    this.#last = next.catch(() => undefined);
    return next;
  }
}
