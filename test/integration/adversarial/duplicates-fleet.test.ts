import { describe, expect, it } from 'vitest';
import { fleetTestWorld } from '../../support/fleet-harness.js';
import { expectNoDuplicates } from '../../support/run-checks.js';
import { invoiceLine, invoicesFeed } from './duplicate-feeds.js';

const world = fleetTestWorld();

describe('issue 18 case 2 in the fleet: the same invoice externalId in two chunks of one file', () => {
  it('case 2 (fleet): concurrency 2 on 2 workers: one created, the other DUPLICATE_IN_SOURCE naming the first line', async () => {
    const fleet = world.start();
    const lines = Array.from({ length: 1_200 }, (_, i) => invoiceLine(`FINV-${i + 1}`, i + 1));
    lines[1_104] = invoiceLine('FINV-2', 9_999, '123.45');
    fleet.worker(4);
    fleet.worker(4);
    const [enqueued] = await fleet.enqueue(invoicesFeed({ 'march.jsonl': lines }, 'march.jsonl', 2));
    const summary = await fleet.finished(String(enqueued?.runId));
    expect(summary.counts).toMatchObject({ created: 1_199, rejected: 1, failed: 0 });
    const outcomes = await fleet.outcomes(String(enqueued?.runId));
    const dup = outcomes.find((o) => o.line === 1_105);
    expect(dup).toMatchObject({ outcome: 'rejected', code: 'DUPLICATE_IN_SOURCE', externalId: 'FINV-2' });
    expect(dup?.message).toMatch(/march\.jsonl:2 /);
    const invoices = [...(world.sandbox().runtime.state.accounts.get(1001)?.invoices.values() ?? [])];
    expectNoDuplicates(invoices.map((i) => ({ externalId: i.externalId ?? null })));
    expect(invoices.filter((i) => i.externalId?.startsWith('FINV-'))).toHaveLength(1_199);
  });
});
