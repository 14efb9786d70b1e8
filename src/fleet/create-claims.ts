import type { Redis } from 'ioredis';
import type { CreateClaims } from '../sync/ports.js';
import { keyHashes } from '../sync/seen-ids.js';
import type { FleetKeys } from './keys.js';

/** Deletes a claim only while `holder` still holds it (an expired claim may be someone else's now). */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/**
 * The fleet's create claims (src/sync/create-claims.ts): one key per (account, kind, externalId),
 * named by its 64-bit hash, `SET NX PX` pipelined per chunk, released by compare-and-delete. Shared
 * by every worker and run on the Redis, so two runs never create one invoice at the same time.
 */
export class RedisCreateClaims implements CreateClaims {
  constructor(
    private readonly redis: Redis,
    private readonly keys: FleetKeys,
  ) {}

  #key(claim: string): string {
    const [a, b] = keyHashes(claim);
    return this.keys.createClaim(`${a.toString(16).padStart(8, '0')}${b.toString(16).padStart(8, '0')}`);
  }

  async tryClaim(claims: readonly string[], holder: string, ttlMs: number): Promise<Set<string>> {
    if (claims.length === 0) return new Set();
    const pipeline = this.redis.pipeline();
    for (const claim of claims) pipeline.set(this.#key(claim), holder, 'PX', ttlMs, 'NX');
    const replies = (await pipeline.exec()) ?? [];
    const got = new Set<string>();
    claims.forEach((claim, i) => {
      const [error, reply] = replies[i] ?? [];
      if (error) throw error;
      if (reply === 'OK') got.add(claim);
    });
    return got;
  }

  async release(claims: readonly string[], holder: string): Promise<void> {
    if (claims.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const claim of claims) pipeline.eval(RELEASE, 1, this.#key(claim), holder);
    await pipeline.exec();
  }
}
