import { createReadStream } from 'node:fs';
import type { ZodError, ZodType } from 'zod';

/** Lines longer than this are skipped as unreadable: a record line is a few hundred bytes. */
export const MAX_LINE_BYTES = 64 * 1024;
/** Lines read at most per console request: a page over a bigger file says its counts are a lower bound. */
export const MAX_LINES_SCANNED = 2_000_000;

/** Where a scan skipped a line first, and why: enough for a message that says where to look. */
export interface UnreadableLine {
  /** 1-based, blank lines counted: the line an editor shows (for a store's values, the position). */
  line: number;
  problem: string;
}

/** A scan's counts, final once its records are iterated to the end. */
export interface ScanCounts {
  /** Lines (or values) skipped: not JSON, not what the schema says, or over-long. */
  unreadable: number;
  /** The first of them. */
  firstUnreadable: UnreadableLine | undefined;
  /** Whether the cap stopped the scan before the end. */
  truncated: boolean;
}

export interface LineScan<T> extends Readonly<ScanCounts> {
  /** Each readable line that `keep` accepts. */
  records: AsyncIterable<T>;
}

/** The scan whose `records` keep its counts as they go: the one shape every scan has. */
export function scanOf<T>(records: (counts: ScanCounts) => AsyncGenerator<T>): LineScan<T> {
  const counts: ScanCounts = { unreadable: 0, firstUnreadable: undefined, truncated: false };
  return Object.assign(counts, { records: records(counts) });
}

/** Counts a skipped line, keeping the first one's place. */
export function skip(counts: ScanCounts, line: number, problem: string): void {
  counts.unreadable++;
  counts.firstUnreadable ??= { line, problem };
}

/** A failed check in words a message can carry: the first problem's place, never the value. */
export function checkProblem(error: ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || 'the line'}: ${issue.message}` : 'not the expected record';
}

export interface ScanOptions {
  /** Lines read at most (then `truncated`); Default MAX_LINES_SCANNED, Infinity for the whole file. */
  maxLines?: number;
  /** A missing file reads as no lines (a report folder whose run has not written it yet). */
  missingIsEmpty?: boolean;
}

/**
 * The NDJSON lines of `path` parsed with `schema`, streamed in chunks: memory stays flat whatever
 * the file's size (a 1,000,000-line outcomes file is never held whole), a damaged or over-long line
 * is counted and skipped (its reader decides whether that is fine: the console shows the count, the
 * extra report fails), and the scan stops after `maxLines` non-blank lines.
 */
export function scanLines<T>(
  path: string,
  schema: ZodType<T>,
  keep: (record: T) => boolean,
  options: ScanOptions = {},
): LineScan<T> {
  const maxLines = options.maxLines ?? MAX_LINES_SCANNED;
  return scanOf(async function* records(counts): AsyncGenerator<T> {
    // Decoded as UTF-8 by the stream, so a character split between two chunks stays whole.
    const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 64 * 1024 });
    let pending = '';
    let skipping = false;
    let lineNo = 0;
    let lines = 0;
    const parse = (line: string): T | undefined => {
      if (line.trim() === '') return undefined;
      lines++;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        skip(counts, lineNo, 'not JSON');
        return undefined;
      }
      const parsed = schema.safeParse(value);
      if (!parsed.success) {
        skip(counts, lineNo, checkProblem(parsed.error));
        return undefined;
      }
      return keep(parsed.data) ? parsed.data : undefined;
    };
    try {
      for await (const chunk of stream) {
        let text = pending + (chunk as string);
        let newline = text.indexOf('\n');
        while (newline >= 0) {
          const line = text.slice(0, newline);
          text = text.slice(newline + 1);
          lineNo++;
          if (skipping) {
            skipping = false;
          } else {
            const record = parse(line);
            if (record !== undefined) yield record;
            if (lines >= maxLines) {
              counts.truncated = true;
              return;
            }
          }
          newline = text.indexOf('\n');
        }
        pending = text;
        // A line without end in sight is not held: it is skipped up to its newline.
        if (pending.length > MAX_LINE_BYTES) {
          if (!skipping) skip(counts, lineNo + 1, `longer than ${MAX_LINE_BYTES / 1024} KiB`);
          skipping = true;
          pending = '';
        }
      }
      if (!skipping) {
        lineNo++;
        const record = parse(pending);
        if (record !== undefined) yield record;
      }
    } catch (error) {
      if (!options.missingIsEmpty || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    } finally {
      stream.destroy();
    }
  });
}
