import * as z from 'zod';
import { LocationConfig } from './location-config.js';

/**
 * When a listed export counts as arrived (complete), so a file still being written is not read:
 * - `immediate`: as soon as it is listed (the local default: local writers can write elsewhere and
 *   rename into the folder, which is atomic);
 * - `stable`: its size and mtime are the same in two listings `stableAfterSeconds` apart (the
 *   default of remote locations, where an upload is visible while it runs);
 * - `marker`: a file `<name><suffix>` (default `.done`) exists beside it; the marker is no export.
 * A string (`arrival: marker`) is the type with its defaults.
 */
export const Arrival = z.preprocess(
  (value) => (typeof value === 'string' ? { type: value } : value),
  z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('immediate') }),
    z.strictObject({
      type: z.literal('stable'),
      stableAfterSeconds: z.number().min(0).max(3600).default(10),
    }),
    z.strictObject({
      type: z.literal('marker'),
      suffix: z
        .string()
        .min(1)
        .regex(/^[^/*?]+$/, 'a file name suffix such as .done (no /, * or ?)')
        .default('.done'),
    }),
  ]),
);
export type Arrival = z.output<typeof Arrival>;

/** A folder beside the file (relative) or an absolute one, never climbing out with `..`. */
const Folder = z
  .string()
  .min(1)
  .refine((f) => !f.split('/').includes('..'), 'a folder name without ".." (e.g. processed)');

/**
 * A duration as feeds write it: a whole number of minutes, hours or days (`90m`, `26h`, `7d`); in
 * milliseconds once parsed.
 */
export const Duration = z
  .string()
  .regex(/^[1-9]\d*[mhd]$/, 'a whole number of minutes, hours or days, e.g. 90m, 26h or 7d')
  .transform(
    (text) =>
      Number(text.slice(0, -1)) *
      { m: 60_000, h: 3_600_000, d: 86_400_000 }[text.slice(-1) as 'm' | 'h' | 'd'],
  );

/** Where a feed's exports live, when they count as arrived and what happens to them after a run. */
export const locationSourceKeys = {
  /** local (default), sftp or s3 (location-config.ts). */
  location: LocationConfig.optional(),
  /** Default: `immediate` for local, `stable` for remote locations. */
  arrival: Arrival.optional(),
  /**
   * After a run whose outcomes are stored: leave the file (default), move it to `processedFolder`
   * (or `failedFolder` when the run failed it), or delete it. Defaults are resolved by
   * afterCareOf, so a feed without these keys loads as it did before they existed.
   */
  afterRun: z.enum(['leave', 'move', 'delete']).optional(),
  /** Default `processed`, beside the file. */
  processedFolder: Folder.optional(),
  /** Default `failed`, beside the file. */
  failedFolder: Folder.optional(),
  /**
   * A run whose glob matches no export completes (exit 0) instead of stopping (exit 2): for feeds
   * where a day without a file is normal. A local or SFTP folder that does not exist stays exit 2.
   */
  allowNoFiles: z.boolean().optional(),
  /** The fleet: an alert when no new export was seen for longer than this (e.g. `26h`). */
  expectEvery: Duration.optional(),
};

/** The keys of a loaded feed's source that say where and when its files are read. */
export interface LocatedSource {
  location?: LocationConfig | undefined;
  arrival?: Arrival | undefined;
  afterRun?: 'leave' | 'move' | 'delete' | undefined;
  processedFolder?: string | undefined;
  failedFolder?: string | undefined;
  allowNoFiles?: boolean | undefined;
  /** In milliseconds. */
  expectEvery?: number | undefined;
}

/** What is done with a file once its run's outcomes are stored. */
export type AfterCare =
  | { action: 'leave' }
  | { action: 'delete' }
  | { action: 'move'; processedFolder: string; failedFolder: string };

/** A database source (issue 29): no file, so no arrival to wait for and no file to move. */
interface RowSource {
  format: 'database';
}
const isRows = (source: LocatedSource | RowSource): source is RowSource =>
  'format' in source && source.format === 'database';

export function afterCareOf(source: LocatedSource | RowSource): AfterCare {
  // A database source's after-care is its cursor's advance (finish-run.ts).
  if (isRows(source)) return { action: 'leave' };
  const action = source.afterRun ?? 'leave';
  if (action !== 'move') return { action };
  return {
    action,
    processedFolder: source.processedFolder ?? 'processed',
    failedFolder: source.failedFolder ?? 'failed',
  };
}

/** The feed's arrival rule, or its location's default. */
export function arrivalOf(source: LocatedSource | RowSource): Arrival {
  // A database's rows have arrived once committed: its snapshot sees those only.
  if (isRows(source)) return { type: 'immediate' };
  if (source.arrival) return source.arrival;
  return isRemote(source.location) ? { type: 'stable', stableAfterSeconds: 10 } : { type: 'immediate' };
}

/** Whether `source.path` names files on a server (taken as is) or on this host (relative to the feed). */
export function isRemote(location: LocationConfig | { type: 'postgres' | 'mysql' } | undefined): boolean {
  return location !== undefined && location.type !== 'local';
}

/** The feed's `expectEvery` (ms); a database source has none (the fleet's freshness is of files). */
export function expectEveryOf(source: LocatedSource | RowSource): number | undefined {
  return isRows(source) ? undefined : source.expectEvery;
}
