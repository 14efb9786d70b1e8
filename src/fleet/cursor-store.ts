import type { Redis } from 'ioredis';
import type { CursorPosition } from '../sources/database/database-read.js';
import { type CursorStore, StoredPosition } from '../sync/run/cursor.js';
import type { FleetKeys } from './keys.js';

/**
 * The fleet's cursor positions (issue 29), one key per database feed, without expiry: a position
 * outlives every run, as the feed's identity settings do. Written by the finishing pass of the
 * feed's import (finish-run.ts), read by the reading pass of the next one, on any worker.
 */
export class RedisCursorStore implements CursorStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: FleetKeys,
  ) {}

  async load(feed: string): Promise<CursorPosition | undefined> {
    const text = await this.redis.get(this.keys.feedCursor(feed));
    if (text === null) return undefined;
    try {
      return StoredPosition.parse(JSON.parse(text));
    } catch {
      // Never a silent start from the beginning: what the key held decides what is read.
      throw new Error(
        `the cursor position of feed ${feed} in Redis (${this.keys.feedCursor(feed)}) is unreadable; fix or delete the key (deleted: the next run reads from the start)`,
      );
    }
  }

  async save(feed: string, position: CursorPosition): Promise<void> {
    await this.redis.set(this.keys.feedCursor(feed), JSON.stringify(position));
  }
}
