import { describe, expect, it } from 'vitest';
import { KeyedBuckets, TokenBucket } from '../../../src/sandbox/faults-bucket.js';

describe('TokenBucket', () => {
  it('allows a burst of `capacity`, then refuses with a whole-second Retry-After', () => {
    const bucket = new TokenBucket(3, 1, 0);
    expect([bucket.take(0), bucket.take(0), bucket.take(0)].every((r) => r.ok)).toBe(true);
    expect(bucket.take(0)).toEqual({ ok: false, retryAfterSeconds: 1 });
  });

  it('refills continuously at refillPerSecond, never above capacity', () => {
    const bucket = new TokenBucket(2, 0.5, 0);
    bucket.take(0);
    bucket.take(0);
    expect(bucket.available(1000)).toBeCloseTo(0.5);
    expect(bucket.take(1000)).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect(bucket.take(2000).ok).toBe(true);
    expect(bucket.available(60_000)).toBe(2);
  });

  it('rounds the wait up to whole seconds (2.5 s -> 3, 7.5 s -> 8)', () => {
    const bucket = new TokenBucket(1, 0.1, 0);
    bucket.take(0);
    expect(bucket.take(7500)).toEqual({ ok: false, retryAfterSeconds: 3 });
    const slow = new TokenBucket(1, 0.1, 0);
    slow.take(0);
    expect(slow.take(2500)).toEqual({ ok: false, retryAfterSeconds: 8 });
  });

  it('answers at least 1 s even when a token is a hair away', () => {
    const bucket = new TokenBucket(1, 1000, 0);
    bucket.take(0);
    expect(bucket.take(0.5)).toEqual({ ok: false, retryAfterSeconds: 1 });
  });

  it('ignores a clock that steps backwards', () => {
    const bucket = new TokenBucket(1, 1, 10_000);
    bucket.take(10_000);
    expect(bucket.take(5_000).ok).toBe(false);
    expect(bucket.take(11_000).ok).toBe(true);
  });

  it('rejects a bucket that could never admit anything', () => {
    expect(() => new TokenBucket(0, 1, 0)).toThrow(/capacity/);
    expect(() => new TokenBucket(1, 0, 0)).toThrow(/refillPerSecond/);
  });
});

describe('KeyedBuckets', () => {
  it('keeps one bucket per key', () => {
    const buckets = new KeyedBuckets(1, 1);
    expect(buckets.take('a', 0).ok).toBe(true);
    expect(buckets.take('a', 0).ok).toBe(false);
    expect(buckets.take('b', 0).ok).toBe(true);
    buckets.clear();
    expect(buckets.take('a', 0).ok).toBe(true);
  });
});
