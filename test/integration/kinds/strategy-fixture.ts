import { PartnerClient } from '../../../src/client/index.js';
import { createLogger } from '../../../src/logging/logger.js';
import { createFaultInjector } from '../../../src/sandbox/faults.js';
import type { FaultConfigInput } from '../../../src/sandbox/faults-config.js';
import { type SandboxHandle, startSandbox } from '../../../src/sandbox/server.js';
import type { AccountRecord } from '../../../src/sandbox/state.js';
import type { MappedRecord } from '../../../src/sources/record.js';
import type { RecordOutcome } from '../../../src/sync/outcome.js';
import type { ChunkContext } from '../../../src/sync/ports.js';
import { FakeClock } from '../../support/fake-clock.js';

export const ACCOUNT = 1001;

const open: { sandbox: SandboxHandle; client: PartnerClient }[] = [];

/** Call from afterEach: closes every client and sandbox the test started. */
export async function closeStrategySandboxes(): Promise<void> {
  for (const { client, sandbox } of open.splice(0)) {
    await client.close();
    await sandbox.close();
  }
}

/**
 * The in-process sandbox with scripted faults, the real PartnerClient on a FakeClock, and a chunk
 * context for account 1001; `account()` is the sandbox's live state of that account and
 * `requests(op)` the sandbox's request counts of one operation by status.
 */
export async function strategySandbox(faults: FaultConfigInput = {}) {
  const sandbox = await startSandbox({ faults: createFaultInjector(faults) });
  const clock = new FakeClock(Date.now());
  const client = new PartnerClient(
    {
      baseUrl: sandbox.url,
      authUrl: sandbox.authUrl,
      clientId: 'sandbox-client',
      clientSecret: 'sandbox-secret',
    },
    { clock },
  );
  open.push({ sandbox, client });
  const ctx: ChunkContext = { client, clock, logger: createLogger({ level: 'silent' }), accountId: ACCOUNT };
  const account = (): AccountRecord => {
    const found = sandbox.runtime.state.accounts.get(ACCOUNT);
    if (!found) throw new Error(`sandbox has no account ${ACCOUNT}`);
    return found;
  };
  const requests = (operation: string): Record<string, number> =>
    sandbox.runtime.stats.snapshot().requests[operation] ?? {};
  return { sandbox, client, clock, ctx, account, requests };
}

export function byOutcome(outcomes: readonly RecordOutcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) counts[o.outcome] = (counts[o.outcome] ?? 0) + 1;
  return counts;
}

/** Exactly one outcome per input record, in input order, with file, line, externalId and amount kept. */
export function eachOnce(outcomes: readonly RecordOutcome[], input: readonly MappedRecord[]): boolean {
  return (
    outcomes.length === input.length &&
    outcomes.every((o, i) => {
      const r = input[i];
      return (
        r && o.file === r.file && o.line === r.line && o.externalId === r.externalId && o.amount === r.amount
      );
    })
  );
}

export const outcomeAt = (outcomes: readonly RecordOutcome[], line: number): RecordOutcome | undefined =>
  outcomes.find((o) => o.line === line);
