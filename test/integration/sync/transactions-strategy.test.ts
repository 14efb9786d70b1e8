import { afterEach, describe, expect, it } from 'vitest';
import { PartnerClient } from '../../../src/client/index.js';
import { createLogger } from '../../../src/logging/logger.js';
import { createFaultInjector } from '../../../src/sandbox/faults.js';
import type { FaultConfigInput } from '../../../src/sandbox/faults-config.js';
import { type SandboxHandle, startSandbox } from '../../../src/sandbox/server.js';
import type { MappedRecord } from '../../../src/sources/record.js';
import type { RecordOutcome } from '../../../src/sync/outcome.js';
import type { ChunkContext } from '../../../src/sync/ports.js';
import { RunStopError } from '../../../src/sync/stop.js';
import { syncTransactionsChunk } from '../../../src/sync/strategies/transactions.js';
import { FakeClock } from '../../support/fake-clock.js';

const ACCOUNT = 1001;
let sandbox: SandboxHandle | undefined;
let client: PartnerClient | undefined;

afterEach(async () => {
  await client?.close();
  await sandbox?.close();
});

async function setup(faults: FaultConfigInput = {}) {
  const injector = createFaultInjector(faults);
  sandbox = await startSandbox({ faults: injector });
  const clock = new FakeClock(Date.now());
  client = new PartnerClient(
    {
      baseUrl: sandbox.url,
      authUrl: sandbox.authUrl,
      clientId: 'sandbox-client',
      clientSecret: 'sandbox-secret',
    },
    { clock },
  );
  const banks = await client.listBankAccounts(ACCOUNT);
  const bankId = (externalId: string) => banks.find((b) => b.externalId === externalId)?.id as number;
  const ctx: ChunkContext = { client, clock, logger: createLogger({ level: 'silent' }), accountId: ACCOUNT };
  const stored = (id: number) => [
    ...(sandbox?.runtime.state.accounts.get(ACCOUNT)?.transactions.get(id)?.values() ?? []),
  ];
  return { ctx, clock, bankId, stored, injector };
}

function records(n: number, from = 0): MappedRecord<'transactions'>[] {
  return Array.from({ length: n }, (_, i) => {
    const k = from + i;
    const amount = `-${k}.5`;
    return {
      file: 'bank.csv',
      line: k + 2,
      externalId: `tx-${k}`,
      derivedId: false,
      amount,
      payload: {
        externalId: `tx-${k}`,
        bookingDate: '2026-02-05',
        amount: Number(amount),
        purpose: `row ${k}`,
      },
    };
  });
}

function byOutcome(outcomes: RecordOutcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) counts[o.outcome] = (counts[o.outcome] ?? 0) + 1;
  return counts;
}

function expectEachOnce(outcomes: RecordOutcome[], input: MappedRecord[]) {
  expect(outcomes.map((o) => o.line).sort((a, b) => a - b)).toEqual(
    input.map((r) => r.line).sort((a, b) => a - b),
  );
}

function expectNoDuplicates(stored: { externalId: string }[]) {
  expect(new Set(stored.map((t) => t.externalId)).size).toBe(stored.length);
}

describe('syncTransactionsChunk against the sandbox', () => {
  it('creates what is missing, maps ids back, and a rerun skips everything', async () => {
    const { ctx, bankId, stored } = await setup();
    const input = records(1000);
    const first = await syncTransactionsChunk(input, bankId('main'), ctx);
    expect(byOutcome(first)).toEqual({ created: 1000 });
    expectEachOnce(first, input);
    const storedIds = new Map(stored(bankId('main')).map((t) => [t.externalId, t.id]));
    for (const o of first) expect(o.serviceId).toBe(storedIds.get(o.externalId as string));
    const second = await syncTransactionsChunk(input, bankId('main'), ctx);
    expect(byOutcome(second)).toEqual({ skipped: 1000 });
    expect(stored(bankId('main'))).toHaveLength(1000);
  });

  it('after a commit-then-reset re-checks instead of resending, and counts the records as created', async () => {
    const { ctx, clock, bankId, stored } = await setup({
      script: [{ op: 'createTransactionsBulk', fault: 'commit-then-reset' }],
    });
    const input = records(300);
    const outcomes = await syncTransactionsChunk(input, bankId('main'), ctx);
    expect(byOutcome(outcomes)).toEqual({ created: 300 });
    expect(clock.sleeps).toEqual([1_000]);
    expect(stored(bankId('main'))).toHaveLength(300);
    expectNoDuplicates(stored(bankId('main')));
  });

  it('after a commit-then-500 creates nothing twice', async () => {
    const { ctx, bankId, stored } = await setup({
      script: [{ op: 'createTransactionsBulk', fault: 'commit-then-500', times: 2 }],
    });
    const input = records(50);
    await syncTransactionsChunk(input.slice(0, 20), bankId('main'), ctx);
    const outcomes = await syncTransactionsChunk(input, bankId('main'), ctx);
    expect(byOutcome(outcomes)).toEqual({ skipped: 20, created: 30 });
    expect(stored(bankId('main'))).toHaveLength(50);
    expectNoDuplicates(stored(bankId('main')));
  });

  it('marks the chunk failed after three re-checks of 500s, and the next run creates it', async () => {
    const { ctx, clock, bankId, stored } = await setup({
      script: [{ op: 'createTransactionsBulk', fault: '500', times: 4 }],
    });
    const input = records(10);
    const outcomes = await syncTransactionsChunk(input, bankId('main'), ctx);
    expect(byOutcome(outcomes)).toEqual({ failed: 10 });
    expect(outcomes[0]?.code).toBe('AMBIGUOUS_WRITE');
    expect(clock.sleeps).toEqual([1_000, 2_000, 4_000]);
    expect(stored(bankId('main'))).toHaveLength(0);
    expect(byOutcome(await syncTransactionsChunk(input, bankId('main'), ctx))).toEqual({ created: 10 });
  });

  it('rejects the records the service refuses and creates the rest', async () => {
    const { ctx, bankId } = await setup();
    const input = records(5);
    (input[2] as MappedRecord<'transactions'>).payload.categoryId = 987654;
    const outcomes = await syncTransactionsChunk(input, bankId('main'), ctx);
    expect(byOutcome(outcomes)).toEqual({ created: 4, rejected: 1 });
    expect(outcomes.find((o) => o.outcome === 'rejected')).toMatchObject({
      line: 4,
      code: 'CATEGORY_NOT_FOUND',
    });
  });

  it('stops the run when the bank account is not managed by the partner API', async () => {
    const { ctx, bankId } = await setup();
    await expect(syncTransactionsChunk(records(3), bankId('online'), ctx)).rejects.toSatisfy(
      (e: unknown) =>
        e instanceof RunStopError && e.code === 'BANK_ACCOUNT_NOT_MODIFIABLE' && /PARTNER/.test(e.message),
    );
  });
});
