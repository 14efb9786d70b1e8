import type { WriteMode } from './chunk-settings.js';

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
