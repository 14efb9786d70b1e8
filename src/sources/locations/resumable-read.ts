import type { Readable } from 'node:stream';
import type { Clock } from '../../time/clock.js';
import type { ByteRange } from './location.js';
import { pulledStream } from './pulled-stream.js';
import { isPreconditionFailed, isTransient, isUnsatisfiableRange, S3LocationError } from './s3-errors.js';

/** One ranged GET's answer: its body and what pins the object's version. */
export interface ObjectPart {
  body: Readable;
  /** The object's ETag; a resumed GET must see the same one. */
  etag: string | undefined;
  /** The first byte this answer carries: from its Content-Range, 0 for a whole-object answer. */
  start: number;
  /** How many bytes this answer carries. */
  length: number;
}

/** Bytes [start, end) (`end` undefined: to the object's end), only if the ETag is still `ifMatch`. */
export interface PartRequest {
  start: number;
  end: number | undefined;
  ifMatch: string | undefined;
}

export type OpenPart = (request: PartRequest, signal: AbortSignal) => Promise<ObjectPart>;

/** How often a read resumes after transient errors without a byte of progress, and how long it waits. */
export interface ReadRetry {
  /** Retries after the failure that started a streak; progress (a byte read) ends a streak. */
  retries: number;
  /** The wait before the first retry; it doubles each retry up to `maxDelayMs`. */
  firstDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_READ_RETRY: ReadRetry = { retries: 5, firstDelayMs: 200, maxDelayMs: 5_000 };

/** Told before each retry (for logs and tests); `reason` holds no secret. */
export interface RetryNotice {
  path: string;
  /** 1 for the first retry of a streak. */
  retry: number;
  /** The byte the retry resumes at. */
  position: number;
  reason: string;
}

export interface ResumableReadOptions {
  path: string;
  label: string;
  range: ByteRange;
  open: OpenPart;
  retry: ReadRetry;
  clock: Clock;
  onRetry: (notice: RetryNotice) => void;
  /** Turns an SDK error into the location's error for this read. */
  fail: (error: unknown) => S3LocationError;
}

/**
 * Streams a byte range of one object version: the first GET's ETag pins the version, and after a
 * transient failure (reset, 5xx, throttling, a body cut short) a new ranged GET resumes at the byte
 * reached, sent with `If-Match` and its answer's ETag and length checked, so a replaced object ends
 * the stream with a CHANGED error instead of splicing two versions together.
 */
export function resumableRead(options: ResumableReadOptions): Readable {
  return pulledStream((signal) => readParts(options, signal));
}

async function* readParts(options: ResumableReadOptions, signal: AbortSignal): AsyncGenerator<Buffer> {
  const { path, label, range, open, retry, clock, onRetry, fail } = options;
  if (range.end !== undefined && range.end <= range.start) return;
  let position = range.start;
  let pinned: { etag: string | undefined; end: number } | undefined;
  let streak = 0;

  const changed = (what: string) =>
    new S3LocationError(
      'CHANGED',
      path,
      `${label}: ${path} changed while being read (${what}); read it again`,
    );

  for (;;) {
    let part: ObjectPart | undefined;
    let dropBody: (() => void) | undefined;
    try {
      part = await open({ start: position, end: pinned?.end ?? range.end, ifMatch: pinned?.etag }, signal);
      const body = part.body;
      dropBody = () => body.destroy();
      signal.addEventListener('abort', dropBody, { once: true });
      if (part.start !== position)
        throw new S3LocationError(
          'FAILED',
          path,
          `${label}: ${path}: asked for bytes from ${position}, the store answered from ${part.start}`,
        );
      const partEnd = part.start + part.length;
      if (pinned === undefined) pinned = { etag: part.etag, end: Math.min(range.end ?? partEnd, partEnd) };
      else if (part.etag !== pinned.etag) throw changed(`ETag ${pinned.etag} became ${part.etag}`);
      else if (partEnd < pinned.end) throw changed(`its end moved from byte ${pinned.end} to ${partEnd}`);
      // A store may send more than the range asked for (s3rver answers `bytes=0-0` with everything).
      for await (const chunk of part.body as AsyncIterable<Buffer>) {
        const wanted = chunk.subarray(0, pinned.end - position);
        position += wanted.length;
        streak = 0;
        if (wanted.length > 0) yield wanted;
        if (position >= pinned.end) return;
      }
      if (position >= pinned.end) return;
      throw new S3LocationError(
        'TRANSIENT',
        path,
        `${label}: ${path}: the answer ended at byte ${position} of ${pinned.end}`,
      );
    } catch (error) {
      if (signal.aborted) return;
      if (pinned === undefined && isUnsatisfiableRange(error)) return; // starts at or past the end, as fs reads
      if (pinned !== undefined && (isPreconditionFailed(error) || isUnsatisfiableRange(error)))
        throw changed(`If-Match ${pinned.etag} no longer holds`);
      const failure = fail(error);
      if (!isTransient(error)) throw failure;
      if (streak >= retry.retries)
        throw new S3LocationError(
          'TRANSIENT',
          path,
          `${failure.message} (gave up after ${streak} retries without progress)`,
        );
      streak += 1;
      onRetry({ path, retry: streak, position, reason: failure.message });
      await clock.sleep(Math.min(retry.maxDelayMs, retry.firstDelayMs * 2 ** (streak - 1)), signal);
    } finally {
      if (dropBody) signal.removeEventListener('abort', dropBody);
      part?.body.destroy();
    }
  }
}
