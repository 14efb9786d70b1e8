import type { Feed } from '../config/feed.js';
import { KINDS } from '../kinds/registry.js';
import type { MappedRecord } from '../sources/record.js';
import { identitySettings } from '../sync/identity/settings.js';
import type { RecordOutcome } from '../sync/outcome.js';

/** The identities a feed's records would be sent under, and the repeats the run would find. */
export interface IdentityCount {
  /** Where IDs come from: the source ID column as the feed maps it, or undefined (derived). */
  source?: string;
  /** What a derived ID is built from (identity/settings.ts, as the identity check stores it). */
  derivedFrom: { scheme: 1 | 2; fields: Record<string, string> };
  /** False: the API keeps no externalId of the kind; the ID only names the record in reports. */
  sent: boolean;
  /** Records that would be sent, and of them those with a derived ID. */
  records: number;
  derived: number;
  /** Repeats of an externalId or a booking within the run (DUPLICATE_IN_SOURCE), as sync finds them. */
  repeatsSkipped: number;
  repeatsRejected: number;
}

/** Tallies identities as records and outcomes go by. */
export class Identities {
  readonly #count: IdentityCount;

  constructor(feed: Feed) {
    const settings = identitySettings(feed);
    const { externalId: source, ...derived } = settings.fields;
    const mapped = feed.mapping.externalId !== undefined;
    this.#count = {
      ...(mapped && source !== undefined ? { source } : {}),
      derivedFrom: { scheme: settings.scheme, fields: derived },
      sent: KINDS[feed.kind].sendsExternalId,
      records: 0,
      derived: 0,
      repeatsSkipped: 0,
      repeatsRejected: 0,
    };
  }

  wouldSend(record: MappedRecord): void {
    this.#count.records++;
    if (record.derivedId) this.#count.derived++;
  }

  outcome(outcome: RecordOutcome): void {
    if (outcome.code !== 'DUPLICATE_IN_SOURCE') return;
    if (outcome.outcome === 'skipped') this.#count.repeatsSkipped++;
    else this.#count.repeatsRejected++;
  }

  result(): IdentityCount {
    return { ...this.#count, derivedFrom: { ...this.#count.derivedFrom } };
  }
}
