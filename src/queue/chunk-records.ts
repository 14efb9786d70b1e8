import type { Redis } from 'ioredis';
import type { MappedRecord } from '../sources/record.js';
import type { FleetKeys } from './keys.js';

/**
 * The records of queued chunk jobs, kept beside the jobs instead of inside them. A chunk job that
 * finds no free tenant slot goes back to the delayed set and is fetched again later; with its
 * records inside, every such fetch moved, decoded and validated ~300 KB for nothing (in the fleet
 * benchmark's one-tenant case 121 of 200 chunks were delayed at least once). A chunk job is now a
 * few hundred bytes: its worker reads the records once it holds a tenant slot, and deletes them
 * once their outcomes are stored. They expire with the run's retention should the job be lost.
 */
export class ChunkRecordStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: FleetKeys,
    private readonly retentionMs: number,
  ) {}

  async put(jobId: string, records: readonly MappedRecord[]): Promise<void> {
    await this.redis.set(this.keys.chunkRecords(jobId), JSON.stringify(records), 'PX', this.retentionMs);
  }

  /** The records as stored (still to be validated: they crossed a process boundary), if any. */
  async get(jobId: string): Promise<unknown> {
    const text = await this.redis.get(this.keys.chunkRecords(jobId));
    return text === null ? undefined : JSON.parse(text);
  }

  async delete(jobId: string): Promise<void> {
    await this.redis.unlink(this.keys.chunkRecords(jobId));
  }
}
