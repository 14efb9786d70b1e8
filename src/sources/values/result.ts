/** A cell conversion either yields a value or says, in words a user can act on, what was expected. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

export const parsed = <T>(value: T): Parsed<T> => ({ ok: true, value });
export const failed = (reason: string): Parsed<never> => ({ ok: false, reason });
