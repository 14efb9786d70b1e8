import type { ChunkSettings } from '../../sync/chunk-settings.js';
import { type HeldVerdict, heldAs, nothingHeld } from '../../sync/held-verdict.js';
import type { ChunkContext } from '../../sync/ports.js';
import { AccountDirectory } from './directory.js';
import type { AccountRecord } from './payload.js';
import { accountPatch } from './strategy.js';

/**
 * Accounts: one the partner already holds with the same company name is skipped (mode insert: any
 * existing one); creates, renames and what the real run would refuse count as would-send.
 */
export async function heldAccounts(
  records: readonly AccountRecord[],
  settings: ChunkSettings,
  ctx: ChunkContext,
): Promise<(record: AccountRecord) => HeldVerdict> {
  if (records.length === 0) return nothingHeld;
  const directory = await AccountDirectory.read(ctx);
  return (record) =>
    heldAs(
      directory.find(record.externalId),
      settings.mode,
      (account) => accountPatch(record.payload, account) === undefined,
    );
}
