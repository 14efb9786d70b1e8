import { listedScope } from '../../sync/reconcile/held.js';
import { predictPerAccount, routeToAccount, syncPerAccount } from '../account-route.js';
import { type KindDefinition, NO_CHUNK_SETTINGS } from '../definition.js';
import { USER_FIELDS } from './fields.js';
import { heldUsers } from './held.js';
import { UserPayload } from './payload.js';
import { syncUsersChunk } from './strategy.js';

export const users: KindDefinition<UserPayload> = {
  chunk: NO_CHUNK_SETTINGS,
  description:
    "users of the feed's account, upserted by externalId; only firstName and lastName are updated (`mode`)",
  fields: USER_FIELDS,
  create: UserPayload,
  // The email: one user per email in the whole service, the one field that names the same person in
  // the ERP and the service, and one the partner API cannot change. A name may change (marriage),
  // a role or language is what a user has, not who they are.
  identityFields: ['email'],
  sendsExternalId: true,
  route: routeToAccount,
  sync: (records, settings, ctx) =>
    syncPerAccount(records, ctx, (group, at) => syncUsersChunk(group, settings, at)),
  reconcile: (_feed, ctx) =>
    Promise.resolve(
      listedScope(`users of account ${ctx.accountId}`, () =>
        ctx.client.listUsers(ctx.accountId, { signal: ctx.signal }),
      ),
    ),
  predict: (records, settings, ctx) =>
    predictPerAccount(records, ctx, (group, at) => heldUsers(group, settings, at)),
};
