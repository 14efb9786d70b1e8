import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fleetTestWorld } from '../../support/fleet-harness.js';
import { transactionsExport } from '../../support/generated-exports.js';

const world = fleetTestWorld({ latency: { ms: 5, jitterMs: 0 } });

describe('the fleet: a declared date format the file contradicts (issue 26, point 1)', () => {
  it('stops the run before any chunk: SOURCE_LAYOUT, exit code 2, no date written swapped', async () => {
    const fleet = world.start();
    // A dd.MM.yyyy export whose feed claims MM.dd.yyyy: its first 12 rows (days 1-12) read either
    // way; row 13 (line 14, 13.01.2026) is the first that shows the mistake.
    const exp = transactionsExport({ rows: 300, name: 'fleet-dates', invalidRows: [], excludedRows: [] });
    const yaml = readFileSync(exp.feedFile, 'utf8');
    writeFileSync(exp.feedFile, yaml.replace('dateFormat: dd.MM.yyyy', 'dateFormat: MM.dd.yyyy'));
    fleet.worker(2);
    const [enqueued] = await fleet.enqueue(exp.feedFile);
    const summary = await fleet.finished(String(enqueued?.runId));
    expect(summary.state).toBe('stopped');
    expect(summary.stopReason).toMatchObject({ code: 'SOURCE_LAYOUT', exitCode: 2 });
    expect(summary.stopReason?.message).toContain('column "Buchungsdatum" (mapping.bookingDate)');
    expect(summary.stopReason?.message).toContain('they fit dd.MM.yyyy');
    expect(summary.stopReason?.message).toContain('line 14 "13.01.2026"');
    expect(summary.files).toMatchObject([{ records: 0 }]);
    expect(world.transactions(1001).filter((t) => t.externalId?.startsWith('fleet-dates-'))).toEqual([]);
  });
});
