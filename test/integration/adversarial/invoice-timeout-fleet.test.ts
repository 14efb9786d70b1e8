import { describe, expect, it } from 'vitest';
import { fleetTestWorld } from '../../support/fleet-harness.js';
import { invoicesExport } from '../../support/generated-exports.js';
import { expectNoDuplicates } from '../../support/run-checks.js';

const world = fleetTestWorld();

describe('issue 18 case 1 in the fleet: a bulk invoice create that commits after the worker gave up', () => {
  it('case 1 (fleet): delay 4500 ms, headers timeout 2000 ms: no invoice twice, counts right', async () => {
    world.faults({ script: [{ op: 'createInvoicesBulk', fault: 'delay', delayMs: 4_500 }] });
    const fleet = world.start();
    const source = invoicesExport({ name: 'adv-fleet-timeout', concurrency: 2 });
    fleet.worker(4, { client: { headersTimeoutMs: 2_000 } });
    const started = Date.now();
    const [enqueued] = await fleet.enqueue(source.feedFile);
    const summary = await fleet.finished(String(enqueued?.runId));
    // A resend made too early could finish before the late commit lands: look after it.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + 6_000 - Date.now())));
    expect(summary.counts).toMatchObject({ created: source.externalIds.length, failed: 0 });
    const invoices = [...(world.sandbox().runtime.state.accounts.get(1001)?.invoices.values() ?? [])];
    expectNoDuplicates(invoices.map((i) => ({ externalId: i.externalId ?? null })));
    expect(invoices.filter((i) => i.externalId?.startsWith('adv-fleet-timeout-'))).toHaveLength(
      source.externalIds.length,
    );
  });
});
