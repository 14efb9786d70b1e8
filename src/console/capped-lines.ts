import { createReadStream } from 'node:fs';
import type { ZodType } from 'zod';

/** Lines longer than this are skipped as unreadable: a record line is a few hundred bytes. */
export const MAX_LINE_BYTES = 64 * 1024;
/** Lines read at most per request: a page over a bigger file says its counts are a lower bound. */
export const MAX_LINES_SCANNED = 2_000_000;

export interface LineScan<T> {
  /** Each readable line that `keep` accepts. */
  records: AsyncIterable<T>;
  /** After the iteration ends: lines skipped, and whether the cap stopped it. */
  readonly unreadable: number;
  readonly truncated: boolean;
}

/**
 * The NDJSON lines of `path` parsed with `schema`, streamed in chunks: memory stays flat whatever
 * the file's size (a 1,000,000-line outcomes file is never held whole), a damaged or over-long line
 * is counted and skipped, and the scan stops after `maxLines`. A missing file reads as no lines.
 */
export function scanLines<T>(
  path: string,
  schema: ZodType<T>,
  keep: (record: T) => boolean,
  maxLines = MAX_LINES_SCANNED,
): LineScan<T> {
  const state = { unreadable: 0, truncated: false };
  async function* records(): AsyncGenerator<T> {
    const stream = createReadStream(path, { highWaterMark: 64 * 1024 });
    let pending = '';
    let skipping = false;
    let lines = 0;
    const parse = (line: string): T | undefined => {
      if (line.trim() === '') return undefined;
      lines++;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        state.unreadable++;
        return undefined;
      }
      const parsed = schema.safeParse(value);
      if (!parsed.success) {
        state.unreadable++;
        return undefined;
      }
      return keep(parsed.data) ? parsed.data : undefined;
    };
    try {
      for await (const chunk of stream) {
        let text = pending + (chunk as Buffer).toString('utf8');
        let newline = text.indexOf('\n');
        while (newline >= 0) {
          const line = text.slice(0, newline);
          text = text.slice(newline + 1);
          if (skipping) {
            skipping = false;
          } else {
            const record = parse(line);
            if (record !== undefined) yield record;
            if (lines >= maxLines) {
              state.truncated = true;
              return;
            }
          }
          newline = text.indexOf('\n');
        }
        pending = text;
        // A line without end in sight is not held: it is skipped up to its newline.
        if (pending.length > MAX_LINE_BYTES) {
          if (!skipping) state.unreadable++;
          skipping = true;
          pending = '';
        }
      }
      if (!skipping) {
        const record = parse(pending);
        if (record !== undefined) yield record;
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    } finally {
      stream.destroy();
    }
  }
  return {
    records: records(),
    get unreadable() {
      return state.unreadable;
    },
    get truncated() {
      return state.truncated;
    },
  };
}
