/**
 * Token bucket: starts full with `capacity` tokens, refills continuously at `refillPerSecond`.
 * A request takes one token; without one it is refused with the whole seconds until a token exists
 * (what a 429's Retry-After carries: an integer, at least 1).
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    readonly capacity: number,
    readonly refillPerSecond: number,
    now: number,
  ) {
    if (!(capacity >= 1) || !(refillPerSecond > 0))
      throw new Error('token bucket needs capacity >= 1 and refillPerSecond > 0');
    this.tokens = capacity;
    this.last = now;
  }

  /** Takes one token at time `now` (ms), or says how many whole seconds to wait for one. */
  take(now: number): { ok: true } | { ok: false; retryAfterSeconds: number } {
    this.refill(now);
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return { ok: true };
    }
    const seconds = Math.ceil((1 - this.tokens) / this.refillPerSecond);
    return { ok: false, retryAfterSeconds: Math.max(1, seconds) };
  }

  /** Tokens available at `now` (fractional), for tests and stats. */
  available(now: number): number {
    this.refill(now);
    return this.tokens;
  }

  private refill(now: number): void {
    // A wall clock may step backwards; never let that drain the bucket.
    const elapsedMs = Math.max(0, now - this.last);
    this.last = Math.max(this.last, now);
    this.tokens = Math.min(this.capacity, this.tokens + (elapsedMs / 1000) * this.refillPerSecond);
  }
}

/** One bucket per key (partner id), created full on first use. */
export class KeyedBuckets {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(
    readonly capacity: number,
    readonly refillPerSecond: number,
  ) {}

  take(key: string, now: number): { ok: true } | { ok: false; retryAfterSeconds: number } {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = new TokenBucket(this.capacity, this.refillPerSecond, now);
      this.buckets.set(key, bucket);
    }
    return bucket.take(now);
  }

  clear(): void {
    this.buckets.clear();
  }
}
