import type { WriteMode } from '../config/write-mode.js';
import type { ChunkSettings } from './chunk-settings.js';
import type { ChunkContext } from './ports.js';

/**
 * Why a dry run counts a record as skipped, or, with `outcome: 'rejected'` and a code, as rejected
 * for what the service holds (a booking held in another shape that says otherwise); undefined: the
 * real run would send it.
 */
export type HeldVerdict =
  | { serviceId?: number; message: string; outcome?: 'rejected'; code?: string }
  | undefined;

/** Said after every dry-run verdict: nothing was written, the service was only read. */
export const DRY = '(dry run: read-only check)';

export const nothingHeld = (): HeldVerdict => undefined;

/**
 * The verdict on a record whose target the service holds as `held` (undefined: missing, would be
 * created): mode insert skips any existing one, other modes one where nothing would change.
 */
export function heldAs<S extends { id: number }>(
  held: S | undefined,
  mode: WriteMode,
  unchanged: (state: S) => boolean,
): HeldVerdict {
  if (!held) return undefined;
  if (mode === 'insert') return { serviceId: held.id, message: `exists; feed mode insert ${DRY}` };
  return unchanged(held) ? { serviceId: held.id, message: `unchanged ${DRY}` } : undefined;
}

/** What a kind keeps of the service's state for a dry run: its records found by their key. */
export interface HeldDirectory<S> {
  find(key: string): S | undefined;
}

/**
 * A dry run's verdicts for a kind whose existing records are read once as a directory (accounts,
 * users, categories): a record is held when the directory has it under its key and `heldAs`
 * says so. Reads nothing for an empty chunk.
 */
export function heldInDirectory<R, S extends { id: number }>(
  read: (ctx: ChunkContext) => Promise<HeldDirectory<S>>,
  keyOf: (record: R) => string,
  unchanged: (record: R, state: S, settings: ChunkSettings) => boolean,
): (
  records: readonly R[],
  settings: ChunkSettings,
  ctx: ChunkContext,
) => Promise<(record: R) => HeldVerdict> {
  return async (records, settings, ctx) => {
    if (records.length === 0) return nothingHeld;
    const directory = await read(ctx);
    return (record) =>
      heldAs(directory.find(keyOf(record)), settings.mode, (state) => unchanged(record, state, settings));
  };
}
