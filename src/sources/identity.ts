import { createHash, hash } from 'node:crypto';
import type { RecordKind } from '../kinds/registry.js';

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
  private readonly prefix: string;

  constructor(private readonly scheme: IdentityScheme = CURRENT_IDENTITY_SCHEME) {
    this.prefix = DERIVED_ID_PREFIX[scheme];
  }

  next(canonicalContent: string): string {
    if (this.scheme === 1) {
      // Version 1, kept byte for byte: feeds pinned to it keep the IDs already in the service.
      const h = createHash('sha256').update(canonicalContent).digest('base64url').slice(0, 22);
      const occurrence = (this.occurrences.get(h) ?? 0) + 1;
      this.occurrences.set(h, occurrence);
      return `${this.prefix}${h}-${occurrence}`;
    }
    const digest = hash('sha256', canonicalContent, 'buffer');
    const key = digest.readUIntBE(0, 6) * 32 + ((digest[6] ?? 0) >> 3);
    const occurrence = (this.occurrences.get(key) ?? 0) + 1;
    this.occurrences.set(key, occurrence);
    return `${this.prefix}${digest.toString('base64url', 0, 16)}-${occurrence}`;
  }
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
