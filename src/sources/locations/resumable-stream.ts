import { Readable } from 'node:stream';
import type { ByteRange } from './location.js';
import { type RetryEvent, type RetryPolicy, retryDelay } from './retry.js';

/** A resumed read found another version of the file than it started with. */
export class FileChangedError extends Error {
  override readonly name = 'FileChangedError';
}

/** One opening of a remote file from a byte offset. */
export interface OpenedRange {
  stream: Readable;
  /**
   * What identifies this version of the file (size and mtime, an ETag): a resumed read whose file
   * changed in between would splice two files, so it fails instead.
   */
  version: string;
}

export interface ResumableReadOptions {
  /** Opens bytes [start, end) afresh, on a new connection when the last one broke. */
  open(start: number, end: number | undefined): Promise<OpenedRange>;
  isTransient(error: unknown): boolean;
  policy: RetryPolicy;
  onRetry?(event: RetryEvent): void;
  /** The error the stream ends with, from the cause and the byte offset reached. */
  fail(cause: unknown, offset: number): Error;
  /** `read <path>`, for retry events. */
  operation: string;
}

/**
 * A read of a byte range that survives transient network errors: when the underlying stream
 * fails, it pauses, opens the file again at the byte reached and goes on, so the consumer sees
 * every byte once, in order, or an error. Backpressure is passed through to the remote stream.
 */
export function resumableRead(range: ByteRange, options: ResumableReadOptions): Readable {
  return new ResumableRead(range, options);
}

class ResumableRead extends Readable {
  #offset: number;
  #inner: Readable | undefined;
  #version: string | undefined;
  #failures = 0;
  #busy = false;
  readonly #abort = new AbortController();

  constructor(
    private readonly range: ByteRange,
    private readonly options: ResumableReadOptions,
  ) {
    super();
    this.#offset = range.start;
  }

  override _read(): void {
    if (this.#inner) this.#inner.resume();
    else if (!this.#busy) void this.#openNext();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#abort.abort();
    this.#inner?.destroy();
    callback(error);
  }

  async #openNext(): Promise<void> {
    this.#busy = true;
    try {
      const { range } = this;
      if (range.end !== undefined && this.#offset >= range.end) {
        this.push(null);
        return;
      }
      const opened = await this.options.open(this.#offset, range.end);
      if (this.destroyed) {
        opened.stream.destroy();
        return;
      }
      if (this.#version !== undefined && opened.version !== this.#version) {
        opened.stream.destroy();
        const changed = new FileChangedError(
          `the file changed while it was read (was ${this.#version}, now ${opened.version})`,
        );
        this.destroy(this.options.fail(changed, this.#offset));
        return;
      }
      this.#version = opened.version;
      this.#attach(opened.stream);
    } catch (error) {
      await this.#failed(error);
    } finally {
      this.#busy = false;
    }
  }

  #attach(inner: Readable): void {
    this.#inner = inner;
    inner.on('data', (chunk: Buffer) => {
      this.#offset += chunk.length;
      this.#failures = 0;
      if (!this.push(chunk)) inner.pause();
    });
    inner.once('end', () => {
      this.#inner = undefined;
      this.push(null);
    });
    // `on`, not `once`: a stream that failed may fail again as it closes (ssh2 reports the failed
    // close of its handle), and an error nobody listens to would crash the process.
    inner.on('error', (error) => {
      if (this.#inner !== inner) return;
      this.#inner = undefined;
      inner.destroy();
      this.#busy = true;
      void this.#failed(error).finally(() => {
        this.#busy = false;
      });
    });
  }

  /** Retries a transient failure after its pause (then reads on), or ends the stream with it. */
  async #failed(error: unknown): Promise<void> {
    if (this.destroyed) return;
    this.#failures++;
    const { policy } = this.options;
    if (!this.options.isTransient(error) || this.#failures > policy.retries) {
      this.destroy(this.options.fail(error, this.#offset));
      return;
    }
    const delayMs = retryDelay(policy, this.#failures);
    this.options.onRetry?.({
      operation: `${this.options.operation} at byte ${this.#offset}`,
      retry: this.#failures,
      delayMs,
      error,
    });
    try {
      await policy.clock.sleep(delayMs, this.#abort.signal);
    } catch {
      return; // destroyed while pausing
    }
    await this.#openNext();
  }
}
