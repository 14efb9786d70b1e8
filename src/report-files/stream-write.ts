import { once } from 'node:events';
import type { Writable } from 'node:stream';

/** Writes `text`, waiting for 'drain' when the stream's buffer is full (memory stays flat). */
export async function write(stream: Writable, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, 'drain');
}

/** Ends the stream and waits until everything written is flushed (or the stream failed). */
export async function closeStream(stream: Writable): Promise<void> {
  if (stream.closed) return;
  await new Promise<void>((resolve, reject) => {
    stream.once('error', reject);
    stream.end(resolve);
  });
}

/**
 * A promise that rejects with the stream's first error and never resolves: raced with writes, so
 * a file that cannot be opened or written fails them instead of leaving them waiting for 'drain'.
 */
export function failureOf(stream: Writable): Promise<never> {
  const failure = new Promise<never>((_, reject) => stream.once('error', reject));
  // Observed by whoever races it; unraced (no error came), it must not count as unhandled.
  failure.catch(() => undefined);
  return failure;
}
