import type { MappedRecord } from '../sources/record.js';
import { accounts } from './accounts/index.js';
import { bankAccounts } from './bank-accounts/index.js';
import { categories } from './categories/index.js';
import type { KindDefinition } from './definition.js';
import { invoices } from './invoices/index.js';
import { plans } from './plans/index.js';
import { transactions } from './transactions/index.js';
import { users } from './users/index.js';

/** Every record kind a feed can carry, one line each; the key is the feed's `kind`. */
const DEFINITIONS = {
  transactions,
  invoices,
  plans,
  'bank-accounts': bankAccounts,
  users,
  accounts,
  categories,
};

type Definitions = typeof DEFINITIONS;
export type RecordKind = keyof Definitions;

/** The request body one source record becomes, per kind (its definition's create schema). */
export type KindPayload = { [K in RecordKind]: Definitions[K] extends KindDefinition<infer P> ? P : never };
export type RecordOf<K extends RecordKind> = MappedRecord<KindPayload[K]>;

/**
 * The registry, typed per kind so that `KINDS[kind]` with a generic kind is that kind's definition
 * (a strategy gets its own records, no casts).
 */
export const KINDS: { readonly [K in RecordKind]: KindDefinition<KindPayload[K]> } = DEFINITIONS;

const isKind = (name: string): name is RecordKind => Object.hasOwn(DEFINITIONS, name);

/** The kinds in registry order (feed validation, docs, tests). */
export const RECORD_KINDS: readonly RecordKind[] = Object.keys(DEFINITIONS).filter(isKind);
