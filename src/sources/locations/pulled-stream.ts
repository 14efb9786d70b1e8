import { Readable } from 'node:stream';

/**
 * A byte stream pulled from an async generator, like `Readable.from`, but destroying it aborts the
 * signal the generator got at once. `Readable.from` only asks the generator to return, which waits
 * until the generator's pending await (a network read) settles; a destroyed read of a remote file
 * must drop its connection instead.
 */
export function pulledStream(source: (signal: AbortSignal) => AsyncGenerator<Buffer>): Readable {
  const abort = new AbortController();
  const iterator = source(abort.signal);
  let pulling = false;

  const pull = async () => {
    pulling = true;
    try {
      for (;;) {
        const next = await iterator.next();
        if (stream.destroyed) return;
        if (next.done) {
          stream.push(null);
          return;
        }
        if (!stream.push(next.value)) return;
      }
    } catch (error) {
      stream.destroy(error instanceof Error ? error : new Error(String(error)));
    } finally {
      pulling = false;
    }
  };

  const stream = new Readable({
    read() {
      if (!pulling) void pull();
    },
    destroy(error, callback) {
      abort.abort();
      // A generator parked at a `yield` is not woken by the abort: ask it to return, so its
      // `finally` closes what it holds. A running one ends on the abort by itself.
      if (!pulling) void iterator.return(undefined).catch(() => {});
      callback(error);
    },
  });
  return stream;
}
