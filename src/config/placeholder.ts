/**
 * A value a person must still fill in: what `erp-bridge init` writes where it cannot decide (the
 * account, the target bank account, a date format the values leave open). Its form,
 * `<fill in: what to put there>`, is a string no setting accepts on purpose and no export or
 * service value looks like, and the feed loader refuses it wherever it stands (findPlaceholders),
 * before the schema: a placeholder that happened to be valid (a mapping's constant, a name) would
 * otherwise send it to the service.
 */
const OPENING = '<fill in';

/** The placeholder text for one decision (one line: it is a YAML scalar and a message). */
export function placeholder(what: string): string {
  return `${OPENING}: ${what.replace(/\s+/g, ' ')}>`;
}

/** Whether a value is a placeholder (leading spaces and case aside: it must never slip through). */
export function isPlaceholder(value: unknown): value is string {
  return typeof value === 'string' && value.trimStart().toLowerCase().startsWith(OPENING);
}

/** Every placeholder in a parsed feed, with its key path (`bankAccount.bankName`) and what it asks. */
export function findPlaceholders(
  value: unknown,
  path: readonly string[] = [],
): { key: string; what: string }[] {
  if (isPlaceholder(value)) {
    const what = value.trim().slice(OPENING.length).replace(/^:\s*/, '').replace(/>$/, '');
    return [{ key: path.join('.') || '(top level)', what }];
  }
  if (Array.isArray(value)) return value.flatMap((item, i) => findPlaceholders(item, [...path, String(i)]));
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([key, item]) => [
      // A key can hold one too (a mapping written as `"<fill in: ...>": column`).
      ...(isPlaceholder(key) ? findPlaceholders(key, path) : []),
      ...findPlaceholders(item, [...path, key]),
    ]);
  return [];
}
