import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FaultScenarios } from '../../support/fault-scenarios.js';
import { type GeneratedExport, transactionsExport } from '../../support/generated-exports.js';
import {
  expectAccounted,
  expectNoDuplicates,
  expectNoRequestDuringPauses,
} from '../../support/run-checks.js';
import { strictBulkFront } from '../../support/strict-bulk-front.js';
import { syncHarness } from '../../support/sync-harness.js';

const BULK = 'createTransactionsBulk' as const;
const EXISTS = 'checkTransactionsExist' as const;
let source: GeneratedExport;
beforeAll(() => {
  // 2,500 German CSV rows: 3 impossible dates (rejected locally) and 2 pending bookings (excluded
  // by the feed), so 2,495 sent in chunks of 1000, 1000, 495; concurrency 1, so scripted faults hit
  // the chunks in file order.
  source = transactionsExport();
});
const s = new FaultScenarios({ kind: 'transactions', accountId: 1001, seeded: 0 }, () => source);
afterEach(() => s.close());

describe('transactions end to end under faults (2,500 German CSV rows, three chunks)', () => {
  it('three 500s on the bulk create (within the 3 retries): re-checked on the 1/2/4 s schedule, all created once', async () => {
    const first = await s.allCreatedOnceThenNothing({ script: [{ op: BULK, fault: '500', times: 3 }] });
    expect(s.h.requests(BULK)).toEqual({ '500': 3, '200': 3 });
    expect(s.h.clock.sleeps).toEqual([1_000, 2_000, 4_000]);
    expect(first.summary.state).toBe('completed_with_errors'); // the three local rejections
  });

  it.each([
    { what: 'four 500s on the bulk create', op: BULK, fault: '500' as const, code: 'AMBIGUOUS_WRITE' },
    {
      what: 'four dropped connections on the existence check',
      op: EXISTS,
      fault: 'reset' as const,
      code: 'NETWORK_ERROR',
    },
  ])(
    '$what (over the retries): that chunk fails with all its records, the run goes on, the rerun creates them once',
    async ({ op, fault, code }) => {
      await s.firstChunkFailsThenRerunCreatesIt({ script: [{ op, fault, times: 4 }] }, code);
    },
  );

  it('commit-then-500 and commit-then-reset: the chunk is re-checked, not resent, and counts as created', async () => {
    const first = await s.allCreatedOnceThenNothing({
      script: [
        { op: BULK, fault: 'commit-then-500' },
        { op: BULK, fault: 'commit-then-reset' },
      ],
    });
    // One bulk request per chunk: the two ambiguous ones were confirmed by the existence check.
    expect(s.h.requests(BULK)).toEqual({ '500': 1, reset: 1, '200': 1 });
    const confirmed = first.outcomes.filter((o) => o.message?.includes('confirmed by the existence check'));
    expect(confirmed).toHaveLength(2_000);
  });

  it('dropped connections before anything was written: reads retried, the write re-checked, then resent once', async () => {
    await s.allCreatedOnceThenNothing({
      script: [
        { op: EXISTS, fault: 'reset', times: 2 },
        { op: BULK, fault: 'reset' },
      ],
    });
    expect(s.h.requests(BULK)).toEqual({ reset: 1, '200': 3 });
    expect(s.h.clock.sleeps).toEqual([1_000, 2_000, 1_000]);
  });

  it('429 with Retry-After: the run waits as told, makes no request during the pause, and loses nothing', async () => {
    const started = Date.now();
    await s.allCreatedOnceThenNothing({
      script: [{ op: BULK, fault: '429', times: 2, retryAfterSeconds: 7 }],
    });
    expect(s.h.requests(BULK)).toEqual({ '429': 2, '200': 3 });
    expect(s.h.events.flatMap((e) => (e.kind === '429' ? [e.retryAfterMs] : []))).toEqual([7_000, 7_000]);
    expectNoRequestDuringPauses(s.h.events);
    expect(s.h.clock.sleeps.filter((ms) => ms === 7_000)).toHaveLength(2);
    expect(s.h.clock.now() - started).toBeGreaterThanOrEqual(14_000);
  });

  it("a partner's token bucket running dry (429 + Retry-After, two chunks at a time): paused and resumed, nothing lost", async () => {
    const parallel = transactionsExport({ name: 'gen-tx-par', rows: 1_500, concurrency: 2 });
    const h = await s.start({ rateLimit: { capacity: 2, refillPerSecond: 0.5, ops: [BULK, EXISTS] } });
    const first = await h.run(parallel.feedFile);
    expectAccounted(first, parallel);
    expect(first.summary.counts).toMatchObject({ created: parallel.externalIds.length, failed: 0 });
    expect(h.injector.injected()['429']).toBeGreaterThan(0);
    expectNoRequestDuringPauses(h.events);
    const stored = await h.stored(1001, 'transactions');
    expectNoDuplicates(stored);
    expect(stored).toHaveLength(parallel.externalIds.length);

    h.setFaults();
    const second = await h.run(parallel.feedFile);
    expectAccounted(second, parallel);
    expect(second.summary.counts).toMatchObject({ created: 0, failed: 0 });
    expect(await h.stored(1001, 'transactions')).toHaveLength(parallel.externalIds.length);
  });

  it('random 500s, resets and commit-then-fail, two chunks at a time: every record once; a clean rerun completes', async () => {
    const ops = [BULK, EXISTS];
    await s.chaos(transactionsExport({ name: 'gen-tx-chaos', rows: 1_500, concurrency: 2 }), {
      seed: 8,
      fail500: { rate: 0.25, ops },
      reset: { rate: 0.15, ops },
      commitThenFail: { rate: 0.4, mode: 'reset', ops },
    });
  });

  it.each([
    { how: 'with causes naming the items', causes: true },
    { how: 'without causes (bisection)', causes: false },
  ])(
    'a 400 for the whole bulk request $how: only the refused records are rejected, the rest created once',
    async ({ causes }) => {
      // Two neighbours in the first chunk, one in each later chunk.
      await s.wholeRequestRefusals([4, 5, 1_050, 2_050], causes);
    },
  );
});

describe('a bulk create failing part-way through narrowing a 400 down', () => {
  it('keeps the records an answered request created (created, not failed); only the rest fail', async () => {
    const file = transactionsExport({ name: 'gen-tx-split', rows: 1_000, invalidRows: [], excludedRows: [] });
    const [firstHalf, secondHalf] = [file.externalIds.slice(0, 500), file.externalIds.slice(500)];
    // The whole request is refused without causes (one bad item in the second half), so the client
    // bisects: the first half is created, the second half is answered 409 (not narrowed, not
    // ambiguous), which ends the chunk.
    const h = await syncHarness(
      {},
      {
        front: strictBulkFront(
          (item) => item.externalId === secondHalf[400],
          false,
          (items) => items.length === 500 && items[0]?.externalId === secondHalf[0],
        ),
      },
    );
    try {
      const run = await h.run(file.feedFile);
      const outcomeOf = new Map(run.outcomes.map((o) => [o.externalId, o]));
      expect(firstHalf.map((id) => outcomeOf.get(id)?.outcome)).toEqual(firstHalf.map(() => 'created'));
      expect(secondHalf.map((id) => outcomeOf.get(id)?.outcome)).toEqual(secondHalf.map(() => 'failed'));
      expect(run.summary.counts).toMatchObject({ created: 500, failed: 500 });
      expect(h.transactions(1001).filter((t) => t.externalId?.startsWith('gen-tx-split'))).toHaveLength(500);
    } finally {
      await h.close();
    }
  });
});
