import * as z from 'zod';
import type { CursorPosition } from '../../sources/database/database-read.js';

/**
 * Issue 29: where each database feed's cursor position is kept between its runs, the one port of
 * "exactly once" (as IdentityStore is of the identity settings): beside the reports for `sync`
 * (src/in-process/cursor-file-store.ts), in Redis for the fleet (src/fleet/cursor-store.ts). A
 * run reads the rows after the stored position; finish-run.ts stores the new one only once the
 * run's outcomes are stored (before its summary) and nothing of it failed.
 */
export interface CursorStore {
  /** The position the feed's last complete run ended at; undefined: none (read from the start). */
  load(feed: string): Promise<CursorPosition | undefined>;
  save(feed: string, position: CursorPosition): Promise<void>;
}

/** A cursor position as stored or carried (the fleet's `job.data.read`): exact text, checked at the edge. */
export const StoredPosition = z.strictObject({ column: z.string(), tieBreaker: z.string().optional() });

/**
 * What one database read covered: the rows after `from` (absent: from the start, a first run or
 * `--reimport`) up to `to`, the reading's position() once its batches ended (absent: no row read,
 * so nothing to advance). Serialisable: it travels with the run to its finish.
 */
export const CursorRange = z.strictObject({
  from: StoredPosition.optional(),
  to: StoredPosition.optional(),
});
export type CursorRange = z.output<typeof CursorRange>;
