import { createHash } from 'node:crypto';

/**
 * Derives a stable externalId for records whose export has none: a hash of the record's content
 * plus its occurrence number among identical records of the same file. Two identical rows (same
 * day, same amount, same text: two real payments) get `-1` and `-2`; a rerun of the same file, or
 * a later export that repeats them in the same order, derives the same IDs.
 *
 * Memory: one Map entry per distinct content in the file (about 60 bytes), so a file of a million
 * ID-less rows costs about 60 MB here; exports with an ID column cost nothing.
 */
export class DerivedIds {
  private readonly occurrences = new Map<string, number>();

  constructor(private readonly prefix: string) {}

  next(canonicalContent: string): string {
    const hash = createHash('sha256').update(canonicalContent).digest('base64url').slice(0, 22);
    const occurrence = (this.occurrences.get(hash) ?? 0) + 1;
    this.occurrences.set(hash, occurrence);
    return `${this.prefix}${hash}-${occurrence}`;
  }
}
