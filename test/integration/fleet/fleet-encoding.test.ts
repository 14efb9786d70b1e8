import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fleetTestWorld } from '../../support/fleet-harness.js';
import { transactionsExport } from '../../support/generated-exports.js';

const world = fleetTestWorld({ latency: { ms: 5, jitterMs: 0 } });

describe('the fleet: a file that is not valid in its declared encoding', () => {
  it('stops the run before any chunk: ENCODING_INVALID, exit code 2, nothing created', async () => {
    const fleet = world.start();
    // A Windows-1252 export whose feed claims UTF-8.
    const exp = transactionsExport({ rows: 300, name: 'fleet-enc', excludedRows: [] });
    const yaml = readFileSync(exp.feedFile, 'utf8');
    writeFileSync(exp.feedFile, yaml.replace('encoding: windows-1252', 'encoding: utf-8'));
    fleet.worker(2);
    const [enqueued] = await fleet.enqueue(exp.feedFile);
    const summary = await fleet.finished(String(enqueued?.runId));
    expect(summary.state).toBe('stopped');
    expect(summary.stopReason).toMatchObject({ code: 'ENCODING_INVALID', exitCode: 2 });
    expect(summary.stopReason?.message).toMatch(
      /umsaetze\.csv: not valid UTF-8 at line 1, byte offset \d+ \(0x[0-9A-F]{2}\): the file looks like Windows-1252/,
    );
    expect(summary.files).toMatchObject([{ records: 0 }]);
    expect(summary.files[0]?.encoding).toBeUndefined();
    expect(world.transactions(1001).filter((t) => t.externalId?.startsWith('fleet-enc-'))).toEqual([]);
  });
});
