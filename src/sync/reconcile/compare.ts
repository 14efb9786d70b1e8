import type { FieldType, KindFields } from '../../sources/field-spec.js';
import { ACCOUNT_FIELD } from '../../sources/field-spec.js';
import { keyHashes } from '../seen-ids.js';
import { comparable, sameValue } from '../writes/field-diff.js';

/** One field a source record and the service disagree on, with both values. */
export interface FieldDifference {
  field: string;
  source: unknown;
  service: unknown;
}

/**
 * The fields a reconcile compares: those the feed maps that the kind sends, less the key and the
 * account route (neither is a value of the record). At most 31, so a record's set fits a bit mask.
 */
export class Comparison {
  readonly fields: readonly string[];
  readonly #types: readonly (FieldType | undefined)[];

  constructor(kindFields: KindFields, mapped: readonly string[]) {
    this.fields = mapped
      .filter((f) => f in kindFields && f !== 'externalId' && f !== ACCOUNT_FIELD)
      .slice(0, 31);
    this.#types = this.fields.map((f) => kindFields[f]?.type);
  }

  /**
   * The fields this record carries a value for, as bits: an empty source cell says nothing about
   * the service's value (the sync leaves such a field alone), so it is not compared.
   */
  maskOf(payload: Readonly<Record<string, unknown>>): number {
    let mask = 0;
    for (let i = 0; i < this.fields.length; i++) {
      const value = payload[this.fields[i] as string];
      if (value !== undefined && value !== null && value !== '') mask |= 1 << i;
    }
    return mask >>> 0;
  }

  /**
   * A 64-bit digest of the masked fields' values as sameValue compares them (`comparable`, tagged
   * by their JS type, so 5 and "5" differ there too): equal digests, equal records.
   */
  digest(values: Readonly<Record<string, unknown>>, mask: number): [number, number] {
    let text = '';
    for (let i = 0; i < this.fields.length; i++) {
      if ((mask & (1 << i)) === 0) continue;
      text += `${i}\u0001${normalised(this.#types[i], values[this.fields[i] as string])}\u0002`;
    }
    return keyHashes(text);
  }

  /** The masked fields whose values differ, both values named. */
  differences(
    source: Readonly<Record<string, unknown>>,
    held: Readonly<Record<string, unknown>>,
    mask: number,
  ): FieldDifference[] {
    const out: FieldDifference[] = [];
    for (let i = 0; i < this.fields.length; i++) {
      if ((mask & (1 << i)) === 0) continue;
      const field = this.fields[i] as string;
      if (!sameValue(this.#types[i], source[field], held[field]))
        out.push({ field, source: source[field] ?? null, service: held[field] ?? null });
    }
    return out;
  }
}

function normalised(type: FieldType | undefined, value: unknown): string {
  const c = comparable(type, value);
  if (c === null) return '\u0000';
  return typeof c === 'string' ? `s${c}` : `${typeof c}${JSON.stringify(c)}`;
}
