import type { Redis } from 'ioredis';
import type { MappedRecord } from '../sources/record.js';
import type { FleetKeys } from './keys.js';
import { deflatedJson, inflatedJson } from './packed-json.js';

/**
 * A chunk's records as stored: the file path they share once, each record without it; the splits
 * of batch bookings once, each part naming its split by its place in `splits`.
 */
interface StoredRecords {
  file: string;
  splits?: string[];
  records: unknown[];
}

const isStoredRecords = (value: unknown): value is StoredRecords =>
  typeof value === 'object' && value !== null && Array.isArray((value as StoredRecords).records);

/** The first byte of records stored deflated. */
const DEFLATED = Buffer.from([0]);

/**
 * The records of queued chunk jobs, kept beside the jobs instead of inside them. A chunk job that
 * finds no free tenant slot goes back to the delayed set and is fetched again later; with its
 * records inside, every such fetch would move, decode and validate ~300 KB for nothing (in the
 * fleet benchmark's one-tenant case 121 of 200 chunks are delayed at least once). So a chunk job
 * is a few hundred bytes: its worker reads the records once it holds a tenant slot, and deletes them
 * once their outcomes are stored. They expire with the run's retention should the job be lost.
 *
 * The file path is stored once rather than in every record (all records of a chunk come from one
 * export file; the absolute path was about a tenth of the bytes). A record of another file keeps
 * its own path, which wins when the records are read back.
 *
 * Stored deflated (zlib level 1) behind a 0x00 byte, which no JSON text starts with, so records a
 * previous version stored as plain JSON are still read: records are the bulk of Redis memory while
 * chunks wait (412 bytes a record as JSON) and of the bytes crossing to Redis and back, and
 * sending fewer bytes cost the workers less CPU than compressing them (measured in bench:fleet).
 */
export class ChunkRecordStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: FleetKeys,
    private readonly retentionMs: number,
  ) {}

  async put(jobId: string, records: readonly MappedRecord[]): Promise<void> {
    const file = records[0]?.file ?? '';
    const splits = new Map<string, number>();
    const stored: StoredRecords = {
      file,
      records: records.map(({ file: own, ...rest }) => {
        const split = rest.booking?.split;
        const place =
          split === undefined ? undefined : (splits.get(split) ?? splits.set(split, splits.size).size - 1);
        const record =
          rest.booking && place !== undefined
            ? { ...rest, booking: { ...rest.booking, split: place } }
            : rest;
        return own === file ? record : { file: own, ...record };
      }),
    };
    if (splits.size > 0) stored.splits = [...splits.keys()];
    const packed = Buffer.concat([DEFLATED, deflatedJson(stored, 1)]);
    await this.redis.set(this.keys.chunkRecords(jobId), packed, 'PX', this.retentionMs);
  }

  /** The records as stored, file paths restored (still to be validated: they crossed a process boundary). */
  async get(jobId: string): Promise<unknown> {
    const packed = await this.redis.getBuffer(this.keys.chunkRecords(jobId));
    if (packed === null) return undefined;
    const stored =
      packed[0] === DEFLATED[0]
        ? inflatedJson(packed.subarray(1))
        : (JSON.parse(packed.toString('utf8')) as unknown);
    // Anything else is left to the payload schema to refuse, naming what is wrong.
    if (!isStoredRecords(stored)) return stored;
    return stored.records.map((record) =>
      withSplit({ file: stored.file, ...(record as object) }, stored.splits),
    );
  }

  async delete(jobId: string): Promise<void> {
    await this.redis.unlink(this.keys.chunkRecords(jobId));
  }
}

/**
 * A record as read back, its part's split restored from the chunk's `splits` (one text shared by
 * every part of a batch: a batch of thousands of parts is not stored thousands of times).
 */
function withSplit(
  record: { file: string; booking?: unknown },
  splits: readonly string[] | undefined,
): object {
  const booking = record.booking;
  if (splits === undefined || typeof booking !== 'object' || booking === null || !('split' in booking))
    return record;
  const place = booking.split;
  const split = typeof place === 'number' ? splits[place] : undefined;
  // Anything else is left to the payload schema to refuse.
  return split === undefined ? record : { ...record, booking: { ...booking, split } };
}
