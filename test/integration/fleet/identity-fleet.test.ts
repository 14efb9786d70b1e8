import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fleetKeys } from '../../../src/fleet/keys.js';
import { fleetTestWorld } from '../../support/fleet-harness.js';

const world = fleetTestWorld();
const work = mkdtempSync(join(tmpdir(), 'erp-bridge-identity-fleet-'));
const CSV = `Buchungstag;Betrag;Buchungstext;Verwendungszweck
03.04.2018;-1.234,50;LASTSCHRIFT;Miete April
05.04.2018;-3,00;KARTENZAHLUNG;Kantine
05.04.2018;-3,00;KARTENZAHLUNG;Kantine
`;

/** The same export in its own folder, with a feed whose purpose comes from `purpose`. */
function feed(dirName: string, purpose: string, name = 'identity-fleet'): string {
  const dir = join(work, dirName);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'export.csv'), CSV);
  const path = join(dir, 'feed.yaml');
  writeFileSync(
    path,
    `name: ${name}
accountId: 1001
kind: transactions
source: { path: "*.csv", format: csv, delimiter: ";", decimalSeparator: ",", dateFormat: dd.MM.yyyy }
mapping: { bookingDate: Buchungstag, amount: Betrag, purpose: ${purpose} }
bankAccount: { externalId: identity-fleet, accountName: Fleet, bankName: Testbank }
`,
  );
  return path;
}

describe('identity settings in the fleet', () => {
  it('a changed identity stops the run in the worker; enqueue --accept-new-identity carries the acceptance to it', async () => {
    const fleet = world.start();
    fleet.worker(2);
    const [first] = await fleet.enqueue(feed('a', '{ columns: [Buchungstext, Verwendungszweck] }'));
    expect((await fleet.finished(String(first?.runId))).counts.created).toBe(3);
    const key = fleetKeys(fleet.config.prefix).feedIdentity('identity-fleet');
    const before = await fleet.connection.get(key);
    expect(JSON.parse(String(before))).toMatchObject({ scheme: 2 });

    const changed = feed('b', '{ columns: [Verwendungszweck] }');
    const [stopped] = await fleet.enqueue(changed);
    const summary = await fleet.finished(String(stopped?.runId));
    expect(summary.stopReason).toMatchObject({ code: 'IDENTITY_CHANGED', exitCode: 2 });
    expect(summary.stopReason?.message).toContain(
      'purpose: columns ["Buchungstext", "Verwendungszweck"] -> columns ["Verwendungszweck"]',
    );
    expect(summary.stopReason?.message).toContain('3 record(s)');
    expect(summary.counts.created).toBe(0);
    expect(world.transactions()).toHaveLength(3);
    expect(await fleet.connection.get(key)).toBe(before);

    // The stopped lines are owed a retry: the accepted enqueue runs them with the flag.
    const [accepted] = await fleet.enqueue(changed, { acceptNewIdentity: true });
    const done = await fleet.finished(String(accepted?.runId));
    expect(done.stopReason).toBeUndefined();
    expect(done.counts.created).toBe(3);
    expect(JSON.parse(String(await fleet.connection.get(key))).fields.purpose).toBe(
      'columns ["Verwendungszweck"]',
    );
  });

  it('a run that wrote nothing (a misspelt column: exit 2) leaves the settings unstored: the fixed run is not stopped', async () => {
    const fleet = world.start();
    fleet.worker(2);
    const name = 'identity-fleet-misspelt';
    const key = fleetKeys(fleet.config.prefix).feedIdentity(name);
    const [misspelt] = await fleet.enqueue(feed('m1', '{ columns: [Buchungstext, Verwendngszweck] }', name));
    const stopped = await fleet.finished(String(misspelt?.runId));
    expect(stopped.stopReason).toMatchObject({ code: 'SOURCE_LAYOUT', exitCode: 2 });
    expect(stopped.counts.created).toBe(0);
    expect(await fleet.connection.get(key)).toBeNull();

    const [fixed] = await fleet.enqueue(feed('m2', '{ columns: [Buchungstext, Verwendungszweck] }', name));
    const done = await fleet.finished(String(fixed?.runId));
    expect(done.stopReason).toBeUndefined();
    expect(done.counts.created).toBe(3);
    expect(JSON.parse(String(await fleet.connection.get(key))).fields.purpose).toBe(
      'columns ["Buchungstext", "Verwendungszweck"]',
    );
  });
});
