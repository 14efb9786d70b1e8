import { createHash, hash } from 'node:crypto';
import type { RecordKind } from '../kinds/registry.js';
import type { StatementAppearance } from './booking.js';

/** Identity schemes of derived externalIds (docs/identity.md). 1: until 2026-11; 2: survives edits. */
export type IdentityScheme = 1 | 2;
const CURRENT_IDENTITY_SCHEME: IdentityScheme = 2;

/** Prefix of derived IDs per scheme: a version-2 ID can never equal a version-1 ID. */
const DERIVED_ID_PREFIX: Record<IdentityScheme, string> = { 1: 'erpb-', 2: 'erpb2-' };

/** What every maximal run of non-ASCII characters becomes (see canonicalText). */
export const NON_ASCII_PLACEHOLDER = '\u001a';

/**
 * A string as the version-2 identity sees it. Control characters and spaces count as whitespace;
 * whitespace runs become one space, ends are trimmed; case is kept. After Unicode NFC, every
 * maximal run of non-ASCII characters becomes one placeholder: the same bytes decoded as UTF-8 or
 * as Windows-1252 (umlaut vs "Ã¼" mojibake vs U+FFFD) then read the same, because a multi-byte
 * character stays a run of non-ASCII characters in any single-byte decoding and ASCII bytes
 * decode the same in all of them. One pass over the characters, no regular expressions (it runs
 * for every string field of every ID-less record).
 */
export function canonicalText(text: string): string {
  // Most cells are canonical already (printable ASCII, single inner spaces): no copy then.
  let plain = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x20 && c < 0x7f) continue;
    if (c === 0x20 && i > 0 && i < text.length - 1 && text.charCodeAt(i + 1) !== 0x20) continue;
    plain = false;
    break;
  }
  if (plain) return text;
  const source = text.normalize('NFC');
  let out = '';
  let segment = -1; // start of the printable-ASCII run being copied
  let space = false;
  let folded = false;
  for (let i = 0; i <= source.length; i++) {
    const c = i < source.length ? source.charCodeAt(i) : 0;
    if (c > 0x20 && c < 0x7f) {
      if (segment < 0) {
        if (space) out += ' ';
        space = false;
        folded = false;
        segment = i;
      }
      continue;
    }
    if (segment >= 0) {
      out += source.slice(segment, i);
      segment = -1;
    }
    if (i === source.length) break;
    if (c <= 0x20 || c === 0x7f) {
      space = out.length > 0;
      folded = false;
    } else if (!folded || space) {
      if (space) out += ' ';
      space = false;
      out += NON_ASCII_PLACEHOLDER;
      folded = true;
    }
  }
  return out;
}

/**
 * Derives a stable externalId for records whose export has none: a hash of the record's canonical
 * content plus its occurrence number among identical records of the same file, in file order. Two
 * identical rows (same day, same amount, same text: two real payments) get `-1` and `-2`; a rerun
 * of the same file, or a later export that repeats them in the same order, derives the same IDs.
 *
 * Memory (scheme 2): the occurrence count is kept per 53-bit number taken from the hash, not per
 * string, so a million distinct ID-less rows cost tens of MB rather than ~140 MB. Two different
 * contents sharing those 53 bits (about 1 in 10^4 for a million-row file) only share an
 * occurrence counter; their IDs still differ (the ID carries 128 bits of the hash).
 */
export class DerivedIds {
  private readonly occurrences = new Map<string | number, number>();
  private readonly statements = new Map<string, StatementOccurrences>();
  private readonly prefix: string;

  constructor(private readonly scheme: IdentityScheme = CURRENT_IDENTITY_SCHEME) {
    this.prefix = DERIVED_ID_PREFIX[scheme];
  }

  /**
   * The next derived ID of `canonicalContent`. A row of a bank statement names its `statement`
   * appearance: when a file holds a statement twice (same account and number), the k-th row of a
   * content in the repeat gets the occurrence the k-th such row of the first appearance got, so the
   * repeat's entries carry the IDs of the first's and are known as its repeat, not as new bookings.
   */
  next(canonicalContent: string, statement?: StatementAppearance): string {
    if (this.scheme === 1) {
      // Version 1, kept byte for byte: feeds pinned to it keep the IDs already in the service.
      const h = createHash('sha256').update(canonicalContent).digest('base64url').slice(0, 22);
      return `${this.prefix}${h}-${this.occurrence(h, statement)}`;
    }
    const digest = hash('sha256', canonicalContent, 'buffer');
    const key = digest.readUIntBE(0, 6) * 32 + ((digest[6] ?? 0) >> 3);
    return `${this.prefix}${digest.toString('base64url', 0, 16)}-${this.occurrence(key, statement)}`;
  }

  private count(key: string | number): number {
    const occurrence = (this.occurrences.get(key) ?? 0) + 1;
    this.occurrences.set(key, occurrence);
    return occurrence;
  }

  private occurrence(key: string | number, statement: StatementAppearance | undefined): number {
    if (!statement) return this.count(key);
    let seen = this.statements.get(statement.key);
    if (!seen) {
      seen = { first: statement.line, current: statement.line, given: new Map(), counts: new Map() };
      this.statements.set(statement.key, seen);
    } else if (seen.current !== statement.line) {
      seen.current = statement.line;
      seen.counts = new Map();
    }
    const k = (seen.counts.get(key) ?? 0) + 1;
    seen.counts.set(key, k);
    const given = seen.given.get(key);
    const repeated = seen.current === seen.first ? undefined : given?.[k - 1];
    if (repeated !== undefined) return repeated;
    const occurrence = this.count(key);
    if (given) given.push(occurrence);
    else seen.given.set(key, [occurrence]);
    return occurrence;
  }
}

/** The occurrences one statement of a file gave, per content, and the rows of its current appearance. */
interface StatementOccurrences {
  /** Line of its first appearance, and of the one being read. */
  first: number;
  current: number;
  /** Per content key, the occurrence numbers its rows got, in order (the first appearance's first). */
  given: Map<string | number, number[]>;
  /** Per content key, the rows of the current appearance so far. */
  counts: Map<string | number, number>;
}

/**
 * The canonical content a version-2 identity hashes: kind, then each identity field that has a
 * value, in sorted field order, as `name`, value. Strings are canonicalText (a join of columns: its
 * parts, each canonical, never the separator); amounts their exact decimal ("1234.5"); dates ISO;
 * everything else as printed. A NUL never occurs inside a canonical value (control characters
 * count as whitespace), so the fields cannot run into each other.
 */
export function identityContent(
  kind: RecordKind,
  fields: readonly string[],
  values: readonly (
    | { value: string | number | boolean; decimal?: string; parts?: readonly string[] }
    | undefined
  )[],
): string {
  let content = `2\u0000${kind}`;
  for (let i = 0; i < fields.length; i++) {
    const converted = values[i];
    if (converted === undefined) continue;
    let text: string;
    if (converted.parts) {
      text = '';
      for (const part of converted.parts) {
        const canonical = canonicalText(part);
        if (canonical) text = text ? `${text}\u001f${canonical}` : canonical;
      }
    } else if (converted.decimal !== undefined) text = converted.decimal;
    else if (typeof converted.value === 'string') text = canonicalText(converted.value);
    else text = String(converted.value);
    if (text === '') continue;
    content += `\u0000${fields[i]}\u0000${text}`;
  }
  return content;
}
