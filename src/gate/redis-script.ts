import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/** A Lua script run by SHA, loaded on first use (and again after a server restart or SCRIPT FLUSH). */
export class RedisScript {
  private readonly sha: string;

  constructor(
    private readonly numberOfKeys: number,
    private readonly lua: string,
  ) {
    this.sha = createHash('sha1').update(lua).digest('hex');
  }

  /** The script's reply as Redis gives it. */
  async call(redis: Redis, keys: readonly string[], args: ReadonlyArray<string | number>): Promise<unknown> {
    if (keys.length !== this.numberOfKeys) throw new Error(`script expects ${this.numberOfKeys} keys`);
    try {
      return await redis.evalsha(this.sha, this.numberOfKeys, ...keys, ...args);
    } catch (error: unknown) {
      if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
      return await redis.eval(this.lua, this.numberOfKeys, ...keys, ...args);
    }
  }

  /** The script's reply as a number (the gate's scripts answer with one). */
  async run(redis: Redis, keys: readonly string[], args: ReadonlyArray<string | number>): Promise<number> {
    return Number(await this.call(redis, keys, args));
  }
}
