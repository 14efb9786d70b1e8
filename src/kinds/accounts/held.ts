import { heldInDirectory } from '../../sync/held-verdict.js';
import { AccountDirectory } from './directory.js';
import type { AccountRecord } from './payload.js';
import { accountPatch } from './strategy.js';

/**
 * Accounts: one the partner already holds with the same company name is skipped (mode insert: any
 * existing one); creates, renames and what the real run would refuse count as would-send.
 */
export const heldAccounts = heldInDirectory(
  (ctx) => AccountDirectory.read(ctx),
  (record: AccountRecord) => record.externalId,
  (record, account) => accountPatch(record.payload, account) === undefined,
);
