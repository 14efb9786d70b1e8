import * as z from 'zod';
import type { Feed } from '../../config/feed.js';
import { KINDS } from '../../kinds/registry.js';
import { FieldMapping } from '../../sources/field-mapping.js';

/**
 * The settings of a feed that its records' IDs depend on, as stored with the feed's run state: the
 * identity scheme, per field that feeds into a derived identity where its value comes from, and
 * where a source ID comes from (`externalId`: another ID column, or none, gives every record
 * another ID as surely as a derived one changes). Not what scheme 2 is built to ignore: join
 * separators, number and date formats, the encoding.
 */
export interface IdentitySettings {
  scheme: 1 | 2;
  /**
   * Field -> readable description of its source, e.g. `columns ["Buchungstext", "Verwendungszweck"]`.
   * `externalId` is there (`not mapped` when IDs are derived) for kinds whose IDs the service
   * keeps; entries stored before 2026-11-28 (second change) lack it and do not compare it.
   */
  fields: Record<string, string>;
  /**
   * The mappings `fields` describes, in full: enough to derive the IDs again the way they were
   * (`feedUnder`). Absent in entries stored before 2026-11-28: those compare by `fields` only.
   */
  mappings?: Record<string, FieldMapping>;
}

/** IdentitySettings as read back from a store (a file, a Redis key): checked at that edge. */
export const StoredIdentitySettings: z.ZodType<IdentitySettings> = z.object({
  scheme: z.literal([1, 2]),
  fields: z.record(z.string(), z.string()),
  mappings: z.record(z.string(), FieldMapping).optional(),
});

const ref = (r: string | number) => JSON.stringify(r);

/** How a mapping fills its field, minus what does not change a scheme-2 identity. */
function describe(mapping: FieldMapping, withFormatting: boolean): string {
  if (typeof mapping === 'string') return `column ${ref(mapping)}`;
  if ('const' in mapping) return `const ${JSON.stringify(mapping.const)}`;
  if ('columns' in mapping)
    return `columns [${mapping.columns.map(ref).join(', ')}]${withFormatting ? ` separator ${JSON.stringify(mapping.separator)}` : ''}`;
  if ('debit' in mapping) return `debit ${ref(mapping.debit)} credit ${ref(mapping.credit)}`;
  if ('sign' in mapping)
    return `column ${ref(mapping.column)} sign ${ref(mapping.sign.column)} negative ${JSON.stringify(mapping.sign.negative)} positive ${JSON.stringify(mapping.sign.positive)}`;
  let text = `column ${ref(mapping.column)}`;
  if (mapping.map) text += ` map ${JSON.stringify(mapping.map)}`;
  if (mapping.default !== undefined) text += ` default ${JSON.stringify(mapping.default)}`;
  return text;
}

/**
 * The feed's identity settings. Scheme 2: the identity fields only. Scheme 1 hashed every mapped
 * field's value as sent, separators and decoded text included, so there every mapped field (with
 * its separator) and the encoding count.
 */
export function identitySettings(feed: Feed): IdentitySettings {
  const scheme = feed.identityScheme;
  const fields: Record<string, string> = {};
  const mappings: Record<string, FieldMapping> = {};
  for (const field of watchedFields(feed, scheme)) {
    const mapping = feed.mapping[field];
    if (mapping === undefined) continue;
    fields[field] = describe(mapping, scheme === 1);
    mappings[field] = mapping;
  }
  // A binary format has no encoding: nothing is decoded, so nothing of it enters an identity.
  if (scheme === 1 && 'encoding' in feed.source) fields['source.encoding'] = feed.source.encoding;
  if (KINDS[feed.kind].sendsExternalId) {
    const source = feed.mapping[SOURCE_ID];
    fields[SOURCE_ID] = source === undefined ? NOT_MAPPED : describe(source, false);
    if (source !== undefined) mappings[SOURCE_ID] = source;
  }
  return { scheme, fields, mappings };
}

/** The field a record's own ID comes from; without it the ID is derived from the content. */
const SOURCE_ID = 'externalId';
const NOT_MAPPED = 'not mapped';

/** The mapped fields a scheme's derived IDs depend on: scheme 2 the kind's identity fields, 1 every field but externalId. */
function watchedFields(feed: Feed, scheme: 1 | 2): readonly string[] {
  return scheme === 2
    ? KINDS[feed.kind].identityFields
    : Object.keys(feed.mapping)
        .filter((f) => f !== 'externalId')
        .sort();
}

/**
 * The feed as it was under `old` settings: the same files, formats and everything else, with the
 * old scheme and the old mappings of the watched fields, so its records carry the derived IDs
 * the old settings gave them. Undefined when that cannot be rebuilt: an entry stored without its
 * mappings, or a scheme-1 entry with another encoding (the text would decode otherwise).
 */
export function feedUnder<F extends Feed>(feed: F, old: IdentitySettings): F | undefined {
  if (!old.mappings) return undefined;
  const encoding = 'encoding' in feed.source ? feed.source.encoding : undefined;
  if (old.scheme === 1 && old.fields['source.encoding'] !== encoding) return undefined;
  const mapping = { ...feed.mapping };
  for (const field of watchedFields(feed, old.scheme)) delete mapping[field];
  // An entry that knew the source ID's mapping gives it back as it was (absent: not mapped).
  if (old.fields[SOURCE_ID] !== undefined) delete mapping[SOURCE_ID];
  return { ...feed, identityScheme: old.scheme, mapping: { ...mapping, ...old.mappings } };
}

/** True when where records' source IDs come from changed (as far as `previous` knows): any record's ID may differ. */
export function sourceIdChanged(
  previous: { scheme: 1 | 2; fields?: Record<string, string> },
  next: IdentitySettings,
): boolean {
  const before = previous.fields?.[SOURCE_ID];
  return before !== undefined && before !== next.fields[SOURCE_ID];
}

/**
 * What changed between two settings in a way that changes derived IDs, one readable line each
 * (e.g. `purpose: columns ["Verwendungszweck"] -> columns ["Buchungstext"]`); empty when nothing did.
 * `previous` undefined fields: a feed that ran before settings were stored (scheme 1, unknown).
 */
export function identityChanges(
  previous: { scheme: 1 | 2; fields?: Record<string, string> },
  next: IdentitySettings,
): string[] {
  const changes: string[] = [];
  if (previous.scheme !== next.scheme) {
    changes.push(`identity scheme: ${previous.scheme} -> ${next.scheme}`);
    return changes; // every derived ID changes; the field lines would only repeat that
  }
  if (!previous.fields) return changes; // same scheme, settings unknown: nothing to compare
  const names = [...new Set([...Object.keys(previous.fields), ...Object.keys(next.fields)])].sort();
  for (const field of names) {
    // Stored before the source ID was part of the settings: not known, so not compared.
    if (field === SOURCE_ID && previous.fields[SOURCE_ID] === undefined) continue;
    const before = previous.fields[field];
    const after = next.fields[field];
    if (before !== after) changes.push(`${field}: ${before ?? '(not mapped)'} -> ${after ?? '(not mapped)'}`);
  }
  return changes;
}
