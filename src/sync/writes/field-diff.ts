import * as z from 'zod';
import type { WriteMode } from '../../config/write-mode.js';
import type { FieldType, KindFields } from '../../sources/field-spec.js';

/** The feed's write options an upserting strategy (invoices, bank accounts) follows. */
export interface UpsertOptions {
  /** upsert: create or update; insert: create only (existing: skipped); update: update only (missing: rejected). */
  mode: WriteMode;
  /** Whether an empty source cell of a mapped, nullable field clears the service's value (sends null). */
  emptyCellClears: boolean;
  /** Service fields the feed maps (Object.keys(feed.mapping)). */
  mappedFields: readonly string[];
}

export interface PatchRules {
  /** The kind's field table: types to compare by, create-time defaults not to PATCH. */
  spec: KindFields;
  /** Fields the update body accepts, the identity fields left out. */
  fields: readonly string[];
  /** Fields whose update schema accepts null: only these can be cleared. */
  nullable: ReadonlySet<string>;
}

/**
 * Reads the patchable fields off the contract's update schema (so the lists cannot drift from the
 * contract): every field but `identity` (what records are matched by, never sent on PATCH), and
 * which of them accept null.
 */
export function patchRules(
  spec: KindFields,
  update: z.ZodObject,
  identity: readonly string[] = [],
): PatchRules {
  const fields = Object.keys(update.shape).filter((field) => !identity.includes(field));
  const nullable = new Set(
    fields.filter((field) => {
      const schema = update.shape[field];
      return schema !== undefined && z.safeParse(schema, null).success;
    }),
  );
  return { spec, fields, nullable };
}

const DATE_PREFIX = /^(\d{4}-\d{2}-\d{2})(?:T|$)/;

/** yyyy-MM-dd of a date the service may also send as a date-time. */
const dateOf = (value: unknown): unknown =>
  typeof value === 'string' ? (DATE_PREFIX.exec(value)?.[1] ?? value) : value;

/**
 * A value as the record and the service are compared: absent and null are both "no value" (null);
 * amounts and ids as numbers (10.5 and 10.50 are one amount), dates as yyyy-MM-dd.
 */
export function comparable(type: FieldType | undefined, value: unknown): unknown {
  const v = value ?? null;
  if (v === null) return null;
  if (type === 'amount' || type === 'integer') return Number(v);
  if (type === 'date') return dateOf(v);
  return v;
}

/** Whether the record's value and the service's mean the same (see comparable). */
export function sameValue(type: FieldType | undefined, wanted: unknown, held: unknown): boolean {
  return comparable(type, wanted) === comparable(type, held);
}

/**
 * The fields to PATCH so that the service's `held` object matches the record's `wanted` payload,
 * and only those:
 * - a field the record carries is sent when it differs, except a create-time default the feed does
 *   not map (bank accounts' accountType CHECKING, accountCurrency EUR): that says nothing about an
 *   existing record, so it must not overwrite what the service holds;
 * - a field the record lacks (empty source cell) is left alone, unless `emptyCellClears` is on, the
 *   feed maps the field and the contract lets it be null: then null is sent if the service has a value.
 */
export function changedFields(
  wanted: Readonly<Record<string, unknown>>,
  held: Readonly<Record<string, unknown>>,
  rules: PatchRules,
  options: UpsertOptions,
): Record<string, unknown> {
  const { spec } = rules;
  const patch: Record<string, unknown> = {};
  for (const field of rules.fields) {
    const mapped = options.mappedFields.includes(field);
    if (wanted[field] !== undefined) {
      if (spec[field]?.implicit !== undefined && !mapped) continue;
      if (!sameValue(spec[field]?.type, wanted[field], held[field])) patch[field] = wanted[field];
    } else if (
      options.emptyCellClears &&
      mapped &&
      rules.nullable.has(field) &&
      (held[field] ?? null) !== null
    ) {
      patch[field] = null;
    }
  }
  return patch;
}
