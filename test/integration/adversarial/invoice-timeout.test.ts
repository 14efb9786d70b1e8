import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/time/clock.js';
import { FaultScenarios } from '../../support/fault-scenarios.js';
import { type GeneratedExport, invoicesExport } from '../../support/generated-exports.js';
import { HANG_GUARD_MS } from '../../support/hang-guard.js';
import { expectAccounted } from '../../support/run-checks.js';

const BULK = 'createInvoicesBulk' as const;
let source: GeneratedExport;
beforeAll(() => {
  // 1,100 invoices, two rejected locally: 1,098 sent in two chunks (1000, 98), concurrency 1.
  source = invoicesExport({ name: 'adv-inv-timeout' });
});
// Account 1001 holds one read-only ERP invoice from the seed.
const s = new FaultScenarios({ kind: 'invoices', accountId: 1001, seeded: 1 }, () => source);
afterEach(() => s.close());

/**
 * Issue 18, case 1: the first bulk create commits 4.5 s after it arrived, while the client gave up
 * after its 2 s headers timeout. The service does not de-duplicate invoices, so a lookup before the
 * late commit followed by a resend created every invoice of the chunk twice. Real time throughout:
 * the race is between the client's real-time timeout and the sandbox's real-time delay.
 */
describe('issue 18 case 1: a bulk invoice create that commits after the client gave up', () => {
  it('case 1: delay 4500 ms, PARTNER_HEADERS_TIMEOUT_MS=2000: no invoice twice, counts right', async () => {
    await s.start(
      { script: [{ op: BULK, fault: 'delay', delayMs: 4_500 }] },
      { client: { headersTimeoutMs: 2_000 }, realTime: true },
    );
    const run = await s.h.run(source.feedFile);
    expectAccounted(run, source);
    expect(run.summary.counts).toMatchObject({ created: s.sent, failed: 0 });
    await s.expectStoredOnce();
    expect(s.h.injector.injected()).toEqual({ delay: 1 });
    // The first re-check waited out the default in-flight bound (twice the headers timeout).
    expect(s.h.clock.sleeps[0]).toBe(4_000);
    const confirmed = run.outcomes.filter((o) => o.message?.includes('confirmed by the lookup'));
    expect(confirmed).toHaveLength(1_000);
    // Only the second chunk was sent after the late first one; nothing was resent.
    expect(s.h.requests(BULK)).toEqual({ '200': 2 });
  });

  it('case 1, the bound as a setting: PARTNER_INFLIGHT_GRACE_MS shorter than the late commit duplicates (why the bound exists)', async () => {
    await s.start(
      { script: [{ op: BULK, fault: 'delay', delayMs: 4_500 }] },
      { client: { headersTimeoutMs: 2_000, inFlightGraceMs: 0 }, realTime: true },
    );
    await s.h.run(source.feedFile);
    // Without waiting, the lookup at ~3 s misses the commit at 4.5 s and the chunk is resent; the
    // run may end before the late commit lands, so wait for it (three bulk creates answered).
    const deadline = Date.now() + HANG_GUARD_MS;
    while ((s.h.requests(BULK)['200'] ?? 0) < 3 && Date.now() < deadline) await systemClock.sleep(100);
    const stored = await s.h.stored(1001, 'invoices');
    expect(stored.length).toBeGreaterThan(s.sent + 1);
  });
});
