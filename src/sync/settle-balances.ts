import type { Feed } from '../config/feed.js';
import { KINDS } from '../kinds/registry.js';
import type { ChunkContext } from './ports.js';
import type { FileStatements, ReadStatements } from './report/statement-report.js';

/**
 * A file's statements for the summary, with the balances they prove applied to the target
 * accounts once the file's records are settled (the kind's `balances`). A run that stopped or was
 * interrupted applies none: each is listed as not applied, with why, for the next run to apply.
 */
export async function settleStatements(
  feed: Feed,
  read: ReadStatements,
  dryRun: boolean,
  ctx: ChunkContext,
  notApplied?: string,
): Promise<FileStatements> {
  const { candidates, ...summary } = read;
  const apply = KINDS[feed.kind].balances;
  if (!apply || candidates.length === 0) return { ...summary, balances: [] };
  if (notApplied !== undefined)
    return {
      ...summary,
      balances: candidates.map((c) => ({
        bankAccount: c.account,
        balanceDate: c.balance.date,
        balanceReference: c.balance.amount,
        statementLine: c.statementLine,
        outcome: 'not-applied' as const,
        message: `not applied: ${notApplied}; the next run applies it`,
      })),
    };
  return { ...summary, balances: await apply(feed, candidates, dryRun, ctx) };
}
