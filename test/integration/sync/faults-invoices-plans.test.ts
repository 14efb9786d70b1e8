import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FaultConfigInput } from '../../../src/sandbox/faults-config.js';
import { FaultScenarios } from '../../support/fault-scenarios.js';
import { demoFeedWith, type GeneratedExport, invoicesExport } from '../../support/generated-exports.js';
import {
  exitCodeOfRun,
  expectAccounted,
  expectNoRequestDuringPauses,
  linesWith,
} from '../../support/run-checks.js';

const BULK = 'createInvoicesBulk' as const;
const LOOKUP = 'listInvoices' as const;
let source: GeneratedExport;
beforeAll(() => {
  // 1,100 invoices and credit notes: two of an unmapped type are rejected locally, 1,098 are sent
  // in two chunks (1000, 98); concurrency 1, so scripted faults hit the chunks in file order.
  source = invoicesExport();
});
// Account 1001 holds one read-only ERP invoice from the seed.
const s = new FaultScenarios({ kind: 'invoices', accountId: 1001, seeded: 1 }, () => source);
afterEach(() => s.close());

describe('invoices end to end under faults (1,100 JSONL records, two chunks; creates are not de-duplicated)', () => {
  it('commit-then-500 and commit-then-reset: looked up, not resent, so no invoice exists twice', async () => {
    const first = await s.allCreatedOnceThenNothing({
      script: [
        { op: BULK, fault: 'commit-then-500' },
        { op: BULK, fault: 'commit-then-reset' },
      ],
    });
    expect(s.h.requests(BULK)).toEqual({ '500': 1, reset: 1 });
    const confirmed = first.outcomes.filter((o) => o.message?.includes('confirmed by the lookup'));
    expect(confirmed).toHaveLength(s.sent);
  });

  it('three 500s on the bulk create (within the retries): looked up before each resend, all created once', async () => {
    await s.allCreatedOnceThenNothing({ script: [{ op: BULK, fault: '500', times: 3 }] });
    expect(s.h.requests(BULK)).toEqual({ '500': 3, '200': 2 });
    expect(s.h.clock.sleeps).toEqual([1_000, 2_000, 4_000]);
  });

  it('four 500s (over the retries): that chunk fails with all its records, the run goes on, the rerun creates them once', async () => {
    await s.firstChunkFailsThenRerunCreatesIt(
      { script: [{ op: BULK, fault: '500', times: 4 }] },
      'AMBIGUOUS_WRITE',
    );
  });

  it('dropped connections on the lookup and before the write: reads retried, the write looked up, then resent once', async () => {
    await s.allCreatedOnceThenNothing({
      script: [
        { op: LOOKUP, fault: 'reset', times: 2 },
        { op: BULK, fault: 'reset' },
      ],
    });
    expect(s.h.requests(BULK)).toEqual({ reset: 1, '200': 2 });
  });

  it('429 with Retry-After on the lookup and the bulk create: waits as told, no request during the pause', async () => {
    const started = Date.now();
    await s.allCreatedOnceThenNothing({
      script: [
        { op: LOOKUP, fault: '429', retryAfterSeconds: 5 },
        { op: BULK, fault: '429', retryAfterSeconds: 11 },
      ],
    });
    expect(s.h.requests(BULK)).toEqual({ '429': 1, '200': 2 });
    expectNoRequestDuringPauses(s.h.events);
    expect(s.h.clock.sleeps).toEqual(expect.arrayContaining([5_000, 11_000]));
    expect(s.h.clock.now() - started).toBeGreaterThanOrEqual(16_000);
  });

  it('random 500s, resets and commit-then-fail, two chunks at a time: no invoice twice; a clean rerun completes', async () => {
    const ops = [BULK, LOOKUP];
    await s.chaos(invoicesExport({ name: 'gen-inv-chaos', concurrency: 2 }), {
      seed: 3,
      fail500: { rate: 0.1, ops },
      reset: { rate: 0.05, ops },
      commitThenFail: { rate: 0.5, mode: 'reset', ops: [BULK] },
    });
  });

  it('the demo invoices (with their deliberate bad row) and a commit-then-reset: four created once, the unreadable amount rejected', async () => {
    const feed = 'config/feeds/demo/rejects/invoices.yaml';
    const demo = { lines: [1, 2, 3, 4, 6], total: '25109' };
    const h = await s.start({ script: [{ op: BULK, fault: 'commit-then-reset' }] });
    const first = await h.run(feed);
    expectAccounted(first, demo);
    expect(first.summary.counts).toMatchObject({ created: 4, rejected: 1 });
    expect(linesWith(first, 'rejected')).toEqual([6]);
    await s.expectStoredOnce(4);

    const second = await h.run(feed);
    expectAccounted(second, demo);
    expect(second.summary.counts).toMatchObject({ created: 0, skipped: 4, rejected: 1 });
    await s.expectStoredOnce(4);
  });

  it.each([
    { how: 'with causes naming the items', causes: true },
    { how: 'without causes (bisection)', causes: false },
  ])(
    'a 400 for the whole bulk request $how: only the refused records are rejected, the rest created once',
    async ({ causes }) => {
      // Two neighbours in the first chunk, one in the second.
      await s.wholeRequestRefusals([4, 5, 1_050], causes);
    },
  );
});

/** The demo plans with their deliberate bad row (config/feeds/demo/rejects). */
const PLANS_FEED = 'config/feeds/demo/rejects/plans.yaml';
/** Lines 2-8; line 8 (a monthly value not on the 1st) is rejected locally. */
const PLANS_FILE = { lines: [2, 3, 4, 5, 6, 7, 8], total: '42121' };

/**
 * Plans have no externalId; "no duplicate" means each category, scenario, period and date holds
 * exactly one value (the feed replaces), and the values sum to what the report says was set.
 */
function expectOneValuePerPeriod(count: number, sum: string): void {
  const plans = [...(s.h.sandbox.runtime.state.accounts.get(1001)?.plans.values() ?? [])];
  const periods = plans.map((p) => JSON.stringify([p.categoryId, p.scenarioId, p.period, p.date]));
  expect(new Set(periods).size).toBe(plans.length);
  expect(plans).toHaveLength(count);
  expect(String(plans.reduce((total, p) => total + p.amount, 0))).toBe(sum);
}

async function plansRunTwice(faults: FaultConfigInput) {
  const h = await s.start(faults);
  const first = await h.run(PLANS_FEED);
  expectAccounted(first, PLANS_FILE);
  expect(linesWith(first, 'rejected')).toEqual([8]);
  h.setFaults();
  const second = await h.run(PLANS_FEED);
  expectAccounted(second, PLANS_FILE);
  // A replacing value is set again on every run: reported created, but nothing adds up twice.
  expect(second.summary.counts).toMatchObject({ created: 6, failed: 0 });
  expectOneValuePerPeriod(6, '44020');
  return first;
}

describe('plans end to end under faults (the demo plans feed, values replace their period)', () => {
  it('commit-then-500, then commit-then-reset on the resend: resent (replacing), no period holds two values', async () => {
    const first = await plansRunTwice({
      script: [
        { op: 'createPlansBulk', fault: 'commit-then-500' },
        { op: 'createPlansBulk', fault: 'commit-then-reset' },
      ],
    });
    expect(first.summary.counts).toMatchObject({ created: 6, failed: 0 });
    expect(s.h.requests('createPlansBulk')).toEqual({ '500': 1, reset: 1, '200': 2 });
    expect(s.h.clock.sleeps).toEqual([1_000, 2_000]);
  });

  it('four 500s (over the retries): the chunk fails with all its records, the rerun sets them once', async () => {
    const first = await plansRunTwice({ script: [{ op: 'createPlansBulk', fault: '500', times: 4 }] });
    expect(first.summary.counts).toMatchObject({ created: 0, failed: 6 });
    expect(first.summary.controlTotals.failed).toEqual({ records: 6, amount: '44020' });
    expect(exitCodeOfRun(first)).toBe(1);
  });

  it('429 with Retry-After: waits as told, no request during the pause', async () => {
    const started = Date.now();
    const first = await plansRunTwice({
      script: [{ op: 'createPlansBulk', fault: '429', retryAfterSeconds: 9 }],
    });
    expect(first.summary.counts).toMatchObject({ created: 6, failed: 0 });
    expectNoRequestDuringPauses(s.h.events);
    expect(s.h.clock.now() - started).toBeGreaterThanOrEqual(9_000);
  });

  it('a whole-request 404/400 with causes (unknown category, zero amount without category): only those rejected', async () => {
    const feed = demoFeedWith(
      'plans',
      'budget.csv',
      [
        'Name,Category,Amount,Month,Scenario',
        'Office rent,Operating expenses > Rent,-2500.00,2026-03-01,',
        'Travel,Operating expenses > Travel,-700.00,2026-03-01,',
        'Salaries,Operating expenses > Salaries,"-12,500.00",2026-03-01,',
        'Placeholder,,0,2026-03-01,',
        'Product sales,Revenue > Sales,30000.00,2026-03-01,',
      ].join('\n'),
    );
    const file = { lines: [2, 3, 4, 5, 6], total: '14300' };
    const h = await s.start();
    for (const run of [await h.run(feed), await h.run(feed)]) {
      expectAccounted(run, file);
      expect(linesWith(run, 'created')).toEqual([2, 4, 6]);
      expect(linesWith(run, 'rejected')).toEqual([3, 5]);
      const messages = run.outcomes.filter((o) => o.outcome === 'rejected').map((o) => o.message);
      expect(messages).toEqual([
        expect.stringContaining('no such category'),
        expect.stringContaining('zero amount without a category'),
      ]);
    }
    expectOneValuePerPeriod(3, '15000');
    expect(s.h.requests('createPlansBulk')).toEqual({ '404': 2, '200': 2 });
  });
});
