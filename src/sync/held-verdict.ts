/** Why a dry run counts a record as skipped; undefined: the real run would send it. */
export type HeldVerdict = { serviceId?: number; message: string } | undefined;

/** Said after every dry-run verdict: nothing was written, the service was only read. */
export const DRY = '(dry run: read-only check)';

export const nothingHeld = (): HeldVerdict => undefined;
