import type { Clock } from '../../src/time/clock.js';

/**
 * Fake time for the client: every requested sleep is recorded and resolves at once, moving `now`
 * forward by the slept amount, so retry schedules are asserted exactly and tests never wait.
 * With `hold()`, sleeps stay pending until `release()` or their signal aborts (abort tests).
 */
export class FakeClock implements Clock {
  readonly sleeps: number[] = [];
  #now: number;
  #held = false;
  #pending: Array<() => void> = [];
  #sleepStarted: Array<() => void> = [];

  constructor(startMs = Date.parse('2030-01-01T00:00:00Z')) {
    this.#now = startMs;
  }

  now(): number {
    return this.#now;
  }

  advance(ms: number): void {
    this.#now += ms;
  }

  hold(): void {
    this.#held = true;
  }

  release(): void {
    this.#held = false;
    for (const resolve of this.#pending.splice(0)) resolve();
  }

  /** Resolves when the next sleep starts (with hold(): the call is now waiting). */
  nextSleep(): Promise<void> {
    return new Promise((resolve) => this.#sleepStarted.push(resolve));
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    this.sleeps.push(ms);
    for (const notify of this.#sleepStarted.splice(0)) notify();
    if (!this.#held) {
      this.#now += ms;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#pending.push(() => {
        signal?.removeEventListener('abort', onAbort);
        this.#now += ms;
        resolve();
      });
    });
  }
}
