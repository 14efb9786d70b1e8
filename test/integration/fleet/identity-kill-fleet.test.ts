import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fleetKeys } from '../../../src/fleet/keys.js';
import { fleetTestWorld } from '../../support/fleet-harness.js';
import { transactionsExport } from '../../support/generated-exports.js';
import {
  cliProcesses,
  explained,
  SLOW_MACHINE_TIMEOUT_MS,
  startFleet,
  until,
} from '../../support/worker-process.js';

/**
 * Issue 26 point 5 on the fleet: the only worker, killed (SIGKILL) after the first chunk of a run
 * was created, never finishes the run; the identity settings are stored all the same (the first
 * chunk stored them before its write), so the changed mapping is stopped.
 */
const world = fleetTestWorld();
const cli = cliProcesses();

/** A generated export of `rows` without an ID column (derived IDs), purpose from `purpose`. */
function derivedExport(name: string, purpose: string) {
  const generated = transactionsExport({
    rows: 4_000,
    invalidRows: [],
    excludedRows: [],
    name,
    bankAccount: `${name}-giro`,
  });
  const text = readFileSync(generated.feedFile, 'utf8')
    .replace('  externalId: Buchungs-ID\n', '')
    .replace('  purpose: Verwendungszweck\n', `  purpose: ${purpose}\n`);
  writeFileSync(generated.feedFile, text);
  return generated;
}

describe('identity settings on the fleet', { timeout: SLOW_MACHINE_TIMEOUT_MS }, () => {
  it('a worker killed after the first chunk was created has stored them: the changed mapping stops', async () => {
    world.faults({ latency: { ms: 400, jitterMs: 0, ops: ['createTransactionsBulk'] } });
    const name = 'identity-kill-fleet';
    const { fleet, env, workers } = await startFleet(world, cli, 1);
    const key = fleetKeys(fleet.config.prefix).feedIdentity(name);
    const [run] = await fleet.enqueue(derivedExport(name, 'Verwendungszweck').feedFile);
    const created = () => world.transactions().filter((t) => t.externalId?.startsWith('erpb2-')).length;
    await explained(
      until(() => created() > 0, 60_000, 'the first chunk to be created'),
      workers,
    );
    const [victim] = workers;
    victim?.child.kill('SIGKILL');
    expect(await victim?.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(await fleet.store.summary(String(run?.runId))).toBeUndefined();
    expect(JSON.parse(String(await fleet.connection.get(key)))).toMatchObject({
      scheme: 2,
      fields: { purpose: 'column "Verwendungszweck"' },
    });

    const [successor] = await cli.workers(env, 1);
    const changed = derivedExport(name, '{ columns: [Verwendungszweck, Info] }');
    const [next] = await fleet.enqueue(changed.feedFile);
    const summary = await explained(
      fleet.finished(String(next?.runId), 60_000),
      [successor].flatMap((w) => w ?? []),
    );
    expect(summary.stopReason?.code).toBe('IDENTITY_CHANGED');
    expect(summary.stopReason?.message).toMatch(
      /: \d+ record\(s\) of this run are in the service under the old derived IDs and would be created again/,
    );
    expect(summary.counts.created).toBe(0);
    // The killed run, taken over by the successor, finishes under the settings it was checked under.
    await explained(
      fleet.finished(String(run?.runId), 60_000),
      [successor].flatMap((w) => w ?? []),
    );
    expect(created()).toBe(4_000);
    expect(JSON.parse(String(await fleet.connection.get(key))).fields.purpose).toBe(
      'column "Verwendungszweck"',
    );
  });
});
