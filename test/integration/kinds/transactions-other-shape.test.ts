import { afterEach, describe, expect, it } from 'vitest';
import { judgeOtherShapes } from '../../../src/kinds/transactions/other-shape.js';
import { syncTransactionsChunk } from '../../../src/kinds/transactions/strategy.js';
import { bookingPartId } from '../../../src/sources/booking.js';
import type { RecordOf } from '../../../src/sources/record-of.js';
import { byOutcome, closeStrategySandboxes, strategySandbox } from './strategy-fixture.js';

afterEach(closeStrategySandboxes);

type Tx = RecordOf<'transactions'>;
const DATE = '2026-03-02';

/** The booking `reference` (total `amount`) as its one entry. */
function entry(reference: string, amount: string): Tx {
  return {
    file: 'b.xml',
    line: 10,
    externalId: reference,
    derivedId: false,
    amount,
    payload: { externalId: reference, bookingDate: DATE, amount: Number(amount) },
    booking: {
      reference,
      account: 'DE89',
      amount,
      date: DATE,
      line: 10,
      others: [bookingPartId(reference, 1)],
    },
  };
}
/** Part `n` of the booking `reference` of `total`, of `amount` itself. */
function part(reference: string, total: string, n: number, amount: string): Tx {
  const externalId = bookingPartId(reference, n);
  return {
    file: 'a.xml',
    line: 20 + n,
    externalId,
    derivedId: false,
    amount,
    payload: { externalId, bookingDate: DATE, amount: Number(amount) },
    booking: { reference, account: 'DE89', amount: total, date: DATE, line: 20, others: [reference] },
  };
}
/** A batch of `count` parts of 1.25 each. */
const batch = (reference: string, count: number) =>
  Array.from({ length: count }, (_, i) => part(reference, String(count * 1.25), i + 1, '1.25'));

async function setup() {
  const s = await strategySandbox();
  const banks = await s.client.listBankAccounts(s.ctx.accountId);
  const bankId = banks.find((b) => b.externalId === 'main')?.id as number;
  return { ...s, bankId };
}

describe('a booking held in another shape, compared with what the service holds', () => {
  it('a batch of 20 parts (beyond one window of parts asked for) is summed; one entry saying otherwise is rejected', async () => {
    const { ctx, bankId, requests } = await setup();
    expect(byOutcome(await syncTransactionsChunk(batch('R-9', 20), bankId, ctx))).toEqual({ created: 20 });
    const [same] = await syncTransactionsChunk([entry('R-9', '25.00')], bankId, ctx);
    expect(same).toMatchObject({ outcome: 'skipped' });
    expect(same?.message).toContain('its 20 parts, together 25 on 2026-03-02');
    const [other] = await syncTransactionsChunk([entry('R-9', '23.75')], bankId, ctx);
    expect(other).toMatchObject({ outcome: 'rejected', code: 'DUPLICATE_IN_SOURCE' });
    expect(other?.message).toContain('here as one entry of 23.75 on 2026-03-02');
    // One Get transaction per part, per judged record; no list.
    expect(requests('getTransaction')).toEqual({ 200: 40 });
    expect(requests('listTransactions')).toEqual({});
  });

  it('an existence answer without ids (the contract allows bare IDs): what is held is found in the list', async () => {
    const { ctx, bankId, requests } = await setup();
    await syncTransactionsChunk(batch('R-7', 2), bankId, ctx);
    const bare = new Map<string, number | undefined>([
      [bookingPartId('R-7', 1), undefined],
      [bookingPartId('R-7', 2), undefined],
    ]);
    const record = entry('R-7', '2.00');
    const verdicts = await judgeOtherShapes([record], bare, bankId, ctx);
    expect(verdicts.get(record)).toMatchObject({ outcome: 'rejected', code: 'DUPLICATE_IN_SOURCE' });
    expect(verdicts.get(record)?.message).toContain('"R-7/#1" (its 2 parts, together 2.5 on 2026-03-02)');
    // R-7/#1 from the list; R-7/#2 by the id the sandbox's answer to the ask for later parts gave.
    expect(requests('listTransactions')).toEqual({ 200: 1 });
    expect(requests('getTransaction')).toEqual({ 200: 1 });
  });

  it('an ordinary rerun of the same shape asks nothing but the existence check', async () => {
    const { ctx, bankId, requests } = await setup();
    const parts = batch('R-5', 3);
    await syncTransactionsChunk(parts, bankId, ctx);
    const exists = requests('checkTransactionsExist')[200] ?? 0;
    expect(byOutcome(await syncTransactionsChunk(parts, bankId, ctx))).toEqual({ skipped: 3 });
    expect(requests('checkTransactionsExist')).toEqual({ 200: exists + 1 });
    expect(requests('getTransaction')).toEqual({});
    expect(requests('listTransactions')).toEqual({});
  });
});

/** The parts of a batch `reference` split as `amounts`, each carrying the split as a file gives it. */
function splitBatch(reference: string, amounts: readonly string[]): Tx[] {
  const total = amounts.reduce((sum, a) => sum + Number(a), 0).toFixed(2);
  const split = amounts.join(' ');
  return amounts.map((amount, i) => {
    const record = part(reference, total, i + 1, amount);
    return { ...record, booking: { ...(record.booking as NonNullable<Tx['booking']>), split } };
  });
}

describe('a batch the service holds split otherwise than the file (issue 25.1, more parts in a later file)', () => {
  it("a first run's own split over chunks in any order: every part created, none judged otherwise", async () => {
    const { ctx, bankId } = await setup();
    const [one, two, three] = splitBatch('R-3', ['1.00', '2.00', '3.00']) as [Tx, Tx, Tx];
    // The third chunk before the second: the service holds R/#1 only when R/#3 is checked.
    for (const chunk of [[one], [three], [two]])
      expect(byOutcome(await syncTransactionsChunk(chunk, bankId, ctx))).toEqual({ created: 1 });
    const [first, second, third] = splitBatch('R-4', ['1.00', '2.00', '3.00']) as [Tx, Tx, Tx];
    for (const chunk of [[third], [first], [second]])
      expect(byOutcome(await syncTransactionsChunk(chunk, bankId, ctx))).toEqual({ created: 1 });
  });

  it('the parts held are compared with the file split by place: a sample of 16 for a long batch of the same split', async () => {
    const { ctx, bankId, requests } = await setup();
    const parts = splitBatch(
      'R-6',
      Array.from({ length: 40 }, (_, i) => `${i + 1}.00`),
    );
    expect(byOutcome(await syncTransactionsChunk(parts.slice(0, 25), bankId, ctx))).toEqual({ created: 25 });
    expect(byOutcome(await syncTransactionsChunk(parts.slice(25), bankId, ctx))).toEqual({ created: 15 });
    expect(requests('getTransaction')).toEqual({ 200: 16 });
  });

  it('an ordinary rerun of parts that carry their split asks nothing but the existence check', async () => {
    const { ctx, bankId, requests } = await setup();
    const parts = splitBatch('R-2', ['1.00', '2.00', '3.00']);
    await syncTransactionsChunk(parts, bankId, ctx);
    const exists = requests('checkTransactionsExist')[200] ?? 0;
    expect(byOutcome(await syncTransactionsChunk(parts, bankId, ctx))).toEqual({ skipped: 3 });
    expect(requests('checkTransactionsExist')).toEqual({ 200: exists + 1 });
    expect(requests('getTransaction')).toEqual({});
  });

  it('a long batch split otherwise: one sampled place differing suffices; all held parts are then added up', async () => {
    const { ctx, bankId, requests } = await setup();
    // Earlier: 30 parts of 1.00 (30.00). Now: the same booking split into 31 parts, the last 30
    // of them again 1.00 (the first 0.00): the held parts add up to the booking, nothing created.
    const earlier = splitBatch(
      'R-8',
      Array.from({ length: 30 }, () => '1.00'),
    );
    expect(byOutcome(await syncTransactionsChunk(earlier, bankId, ctx))).toEqual({ created: 30 });
    const later = splitBatch('R-8', ['0.00', ...Array.from({ length: 30 }, () => '1.00')]);
    const outcomes = await syncTransactionsChunk(later, bankId, ctx);
    expect(byOutcome(outcomes)).toEqual({ skipped: 31 });
    expect(outcomes[30]?.message).toContain('"R-8/#1" (its 30 parts, together 30 on 2026-03-02)');
    // The sample (16), then the other 14 held parts to add them up.
    expect(requests('getTransaction')).toEqual({ 200: 30 });
  });
});
