import { accounts } from './accounts/index.js';
import { bankAccounts } from './bank-accounts/index.js';
import { categories } from './categories/index.js';
import type { KindDefinition, KindFeedKey, KindFeedOptions } from './definition.js';
import { invoices } from './invoices/index.js';
import { RECORD_KINDS, type RecordKind } from './kind-names.js';
import { plans } from './plans/index.js';
import { transactions } from './transactions/index.js';
import { users } from './users/index.js';

export { RECORD_KINDS, type RecordKind };

/** Each record kind's definition, one line each; the key is the feed's `kind` (kind-names.ts). */
const DEFINITIONS = {
  transactions,
  invoices,
  plans,
  'bank-accounts': bankAccounts,
  users,
  accounts,
  categories,
} satisfies { readonly [K in RecordKind]: unknown };

type Definitions = typeof DEFINITIONS;

/** The request body one source record becomes, per kind (its definition's create schema). */
export type KindPayload = {
  [K in RecordKind]: Definitions[K] extends KindDefinition<infer P, infer _F, infer _C> ? P : never;
};
/** A kind's own feed keys, as a loaded feed carries them (KindDefinition.feedKeys). */
export type KindFeed = {
  [K in RecordKind]: Definitions[K] extends KindDefinition<infer _P, infer F, infer _C> ? F : never;
};
/** What a kind's chunks carry of their own (ChunkSettings.ofKind). */
export type KindChunk = {
  [K in RecordKind]: Definitions[K] extends KindDefinition<infer _P, infer _F, infer C> ? C : never;
};
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** Every kind's feed keys at once (each optional): a loaded feed of any kind may be handed to its kind. */
export type KindFeedSettings = Intersection<KindFeed[RecordKind]>;
/** A loaded feed as any kind reads it: the generic options and every kind's own keys. */
export type KindFeedOf = KindFeedOptions & KindFeedSettings;

/**
 * The registry, typed per kind so that `KINDS[kind]` with a generic kind is that kind's definition
 * (a strategy gets its own records, no casts).
 */
export const KINDS: {
  readonly [K in RecordKind]: KindDefinition<KindPayload[K], KindFeed[K], KindChunk[K]>;
} = DEFINITIONS;

/** A feed key some kinds own, with the kinds that own it (registry order); the first owner's declaration speaks for it. */
export interface OwnedFeedKey {
  key: string;
  owners: readonly RecordKind[];
  spec: KindFeedKey<unknown>;
}

/** The kinds' own feed keys, in registry then declaration order (the feed schema, its checks, the docs). */
export const KIND_FEED_KEYS: readonly OwnedFeedKey[] = (() => {
  const keys = new Map<string, { spec: KindFeedKey<unknown>; owners: RecordKind[] }>();
  for (const kind of RECORD_KINDS)
    for (const [key, spec] of Object.entries<KindFeedKey<unknown>>(KINDS[kind].feedKeys ?? {})) {
      const known = keys.get(key);
      if (known) known.owners.push(kind);
      else keys.set(key, { spec, owners: [kind] });
    }
  return [...keys].map(([key, { spec, owners }]) => ({ key, owners, spec }));
})();
