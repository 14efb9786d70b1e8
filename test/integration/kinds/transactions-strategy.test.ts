import { afterEach, describe, expect, it } from 'vitest';
import { syncTransactionsChunk } from '../../../src/kinds/transactions/strategy.js';
import type { FaultConfigInput } from '../../../src/sandbox/faults-config.js';
import type { RecordOf } from '../../../src/sources/record-of.js';
import { RunStopError } from '../../../src/sync/stop.js';
import { byOutcome, closeStrategySandboxes, eachOnce, strategySandbox } from './strategy-fixture.js';

afterEach(closeStrategySandboxes);

/** The shared strategy sandbox, plus the seeded bank accounts by externalId and their ledgers. */
async function setup(faults: FaultConfigInput = {}) {
  const { ctx, clock, client, account } = await strategySandbox(faults);
  const banks = await client.listBankAccounts(ctx.accountId);
  const bankId = (externalId: string) => banks.find((b) => b.externalId === externalId)?.id as number;
  const stored = (id: number) => [...(account().transactions.get(id)?.values() ?? [])];
  return { ctx, clock, bankId, stored };
}

function records(n: number, from = 0): RecordOf<'transactions'>[] {
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

function expectNoDuplicates(stored: { externalId: string }[]) {
  expect(new Set(stored.map((t) => t.externalId)).size).toBe(stored.length);
}

describe('syncTransactionsChunk against the sandbox', () => {
  it('creates what is missing, maps ids back, and a rerun skips everything', async () => {
    const { ctx, bankId, stored } = await setup();
    const input = records(1000);
    const first = await syncTransactionsChunk(input, bankId('main'), ctx);
    expect(byOutcome(first)).toEqual({ created: 1000 });
    expect(eachOnce(first, input)).toBe(true);
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
    (input[2] as RecordOf<'transactions'>).payload.categoryId = 987654;
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
