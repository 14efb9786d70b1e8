import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../../src/cli/commands/sync.js';
import { FileIdentityStore } from '../../../src/in-process/identity-file-store.js';
import { syncHarness } from '../../support/sync-harness.js';

/** Issue 11 point 3: a change of the settings derived IDs depend on stops the run before sending. */
const work = mkdtempSync(join(tmpdir(), 'erp-bridge-identity-settings-'));
const CSV = `Ref;Buchungstag;Betrag;Buchungstext;Verwendungszweck;Name
R1;03.04.2018;-1.234,50;LASTSCHRIFT;Miete April;Hausverwaltung
R2;05.04.2018;-22,59;KARTENZAHLUNG;EDEKA;EDEKA
R3;05.04.2018;-3,00;KARTENZAHLUNG;Kantine;Kantine GmbH
R4;05.04.2018;-3,00;KARTENZAHLUNG;Kantine;Kantine GmbH
`;

let n = 0;
function feed(
  options: { name?: string; purpose?: string; extra?: string; bankAccount?: string } = {},
): string {
  const dir = join(work, `case-${n++}`);
  mkdirSync(dir);
  writeFileSync(join(dir, 'export.csv'), CSV);
  const path = join(dir, 'feed.yaml');
  writeFileSync(
    path,
    `name: ${options.name ?? 'identity-settings'}
accountId: 1001
kind: transactions
${options.extra ?? ''}
source: { path: "*.csv", format: csv, delimiter: ";", decimalSeparator: ",", dateFormat: dd.MM.yyyy }
mapping:
  bookingDate: Buchungstag
  amount: Betrag
  purpose: ${options.purpose ?? '{ columns: [Buchungstext, Verwendungszweck] }'}
  counterpartyName: Name
bankAccount: { externalId: ${options.bankAccount ?? 'identity-settings'}, accountName: Settings, bankName: Testbank }
`,
  );
  return path;
}

describe('identity settings change detection (in-process)', () => {
  let h: Awaited<ReturnType<typeof syncHarness>>;
  let store: FileIdentityStore;
  const stored = () => JSON.parse(readFileSync(store.path, 'utf8')) as Record<string, unknown>;
  const bankAccount = (externalId: string) =>
    [...(h.sandbox.runtime.state.accounts.get(1001)?.bankAccounts.values() ?? [])].find(
      (b) => b.externalId === externalId,
    );
  const transactionsOf = (externalId: string) => {
    const bank = bankAccount(externalId);
    return bank ? (h.sandbox.runtime.state.accounts.get(1001)?.transactions.get(bank.id) ?? []) : [];
  };
  beforeAll(async () => {
    h = await syncHarness();
    store = new FileIdentityStore(h.reportDir);
  });
  afterAll(() => h.close());

  it('a first run stores the settings and goes on', async () => {
    const first = await h.run(feed(), false, undefined, { identity: { store, accept: false } });
    expect(first.summary.counts.created).toBe(4);
    expect(stored()['identity-settings']).toEqual({
      scheme: 2,
      fields: {
        amount: 'column "Betrag"',
        bookingDate: 'column "Buchungstag"',
        counterpartyName: 'column "Name"',
        purpose: 'columns ["Buchungstext", "Verwendungszweck"]',
      },
      // In full, so that a later change can derive the old IDs again and ask which the service holds.
      mappings: {
        amount: 'Betrag',
        bookingDate: 'Buchungstag',
        counterpartyName: 'Name',
        purpose: { columns: ['Buchungstext', 'Verwendungszweck'], separator: ' ' },
      },
    });
  });

  it('a different column mapped into the identity stops the run (exit 2) naming the change and the count', async () => {
    const before = JSON.stringify(stored());
    const changed = feed({ purpose: '{ columns: [Verwendungszweck] }' });
    for (const dryRun of [true, false]) {
      const run = await h.run(changed, dryRun, undefined, { identity: { store, accept: false } });
      expect(run.summary.stopReason).toMatchObject({ code: 'IDENTITY_CHANGED', exitCode: 2 });
      const message = run.summary.stopReason?.message ?? '';
      expect(message).toContain(
        'purpose: columns ["Buchungstext", "Verwendungszweck"] -> columns ["Verwendungszweck"]',
      );
      expect(message).toContain(
        '4 record(s) of this run are in the service under the old derived IDs and would be created again',
      );
      expect(message).toContain('--accept-new-identity');
      expect(exitCodeOf([run])).toBe(2);
      expect(run.summary.counts.created).toBe(0);
      expect(run.outcomes.map((o) => o.code)).toEqual(Array(4).fill('IDENTITY_CHANGED'));
      expect(transactionsOf('identity-settings')).toHaveLength(4);
      expect(JSON.stringify(stored())).toBe(before);
    }
  });

  it('--accept-new-identity goes on and stores the new settings; the next run does not stop', async () => {
    const changed = feed({ purpose: '{ columns: [Verwendungszweck] }' });
    const accepted = await h.run(changed, false, undefined, { identity: { store, accept: true } });
    expect(accepted.summary.stopReason).toBeUndefined();
    // Accepting means exactly this: the records get their new IDs (here: created again).
    expect(accepted.summary.counts.created).toBe(4);
    expect((stored()['identity-settings'] as { fields: Record<string, string> }).fields.purpose).toBe(
      'columns ["Verwendungszweck"]',
    );
    const next = await h.run(changed, false, undefined, { identity: { store, accept: false } });
    expect(next.summary.stopReason).toBeUndefined();
    expect(next.summary.counts).toMatchObject({ created: 0, skipped: 4 });
  });

  it('changes outside the identity (separator, a category) do not stop the run', async () => {
    const edited = feed({ purpose: '{ columns: [Verwendungszweck], separator: " / " }' });
    const run = await h.run(edited, false, undefined, { identity: { store, accept: false } });
    expect(run.summary.stopReason).toBeUndefined();
    expect(run.summary.counts).toMatchObject({ created: 0, skipped: 4 });
  });

  it('a feed whose records all carry a source ID is not stopped', async () => {
    const name = 'identity-with-ids';
    const withIds = (purpose: string) => {
      const path = feed({ name, purpose, bankAccount: name });
      writeFileSync(path, readFileSync(path, 'utf8').replace('mapping:\n', 'mapping:\n  externalId: Ref\n'));
      return path;
    };
    const ids = { identity: { store, accept: false } };
    const first = await h.run(withIds('Buchungstext'), false, undefined, ids);
    expect(first.summary.counts.created).toBe(4);
    const second = await h.run(withIds('Verwendungszweck'), false, undefined, ids);
    expect(second.summary.stopReason).toBeUndefined();
    // It wrote nothing (every record was in the service already): the settings stay as they were,
    // and the next run is not stopped either.
    expect(second.summary.counts).toMatchObject({ created: 0, updated: 0, skipped: 4 });
    expect((stored()[name] as { fields: Record<string, string> }).fields.purpose).toBe(
      'column "Buchungstext"',
    );
    expect(
      (await h.run(withIds('Verwendungszweck'), false, undefined, ids)).summary.stopReason,
    ).toBeUndefined();
  });

  it('a feed that ran before identity settings were kept (scheme 1) stops before creating anything, also its target', async () => {
    const name = 'identity-legacy';
    writeFileSync(
      join(h.reportDir, '.feed-health.json'),
      JSON.stringify({ [name]: { failing: '', dropped: false, recent: [{ runId: 'r0', records: 4 }] } }),
    );
    const legacy = await h.run(feed({ name, bankAccount: name }), false, undefined, {
      identity: { store, accept: false },
    });
    expect(legacy.summary.stopReason?.message).toContain('identity scheme: 1 -> 2');
    expect(legacy.summary.stopReason?.message).toContain('identityScheme: 1');
    expect(bankAccount(name)).toBeUndefined();
    expect(stored()[name]).toBeUndefined();
    // Pinned to scheme 1, the feed goes on with the IDs it always had.
    const pinned = await h.run(
      feed({ name, bankAccount: name, extra: 'identityScheme: 1' }),
      false,
      undefined,
      {
        identity: { store, accept: false },
      },
    );
    expect(pinned.summary.stopReason).toBeUndefined();
    expect(transactionsOf(name).every((t) => /^erpb-[\w-]{22}-\d+$/.test(t.externalId ?? ''))).toBe(true);
    expect((stored()[name] as { scheme: number }).scheme).toBe(1);
  });

  it('a changed feed without an ID column and without a file this time keeps the old settings for its next run', async () => {
    const before = JSON.stringify(stored()['identity-settings']);
    const empty = feed({ purpose: '{ columns: [Buchungstext] }' });
    rmSync(join(dirname(empty), 'export.csv'));
    // No file is no success (issue 26.2): the run stops, and the settings stay as they were.
    const stopped = await h.run(empty, false, undefined, { identity: { store, accept: false } });
    expect(stopped.summary.stopReason).toMatchObject({ code: 'NO_EXPORT_FILE', exitCode: 2 });
    expect(JSON.stringify(stored()['identity-settings'])).toBe(before);
    // A feed for which no file is normal completes, and keeps them too.
    writeFileSync(
      empty,
      readFileSync(empty, 'utf8').replace('dd.MM.yyyy }', 'dd.MM.yyyy, allowNoFiles: true }'),
    );
    const run = await h.run(empty, false, undefined, { identity: { store, accept: false } });
    expect(run.summary.stopReason).toBeUndefined();
    expect(JSON.stringify(stored()['identity-settings'])).toBe(before);
    const withFile = await h.run(feed({ purpose: '{ columns: [Buchungstext] }' }), false, undefined, {
      identity: { store, accept: false },
    });
    expect(withFile.summary.stopReason?.code).toBe('IDENTITY_CHANGED');
  });

  it('a run that wrote nothing under new settings (a misspelt column, an unknown account, a dry run) leaves them unstored: the fixed run is not stopped', async () => {
    const name = 'identity-misspelt';
    const ids = { identity: { store, accept: false } };
    const misspelt = await h.run(
      feed({ name, bankAccount: name, purpose: '{ columns: [Buchungstext, Verwendngszweck] }' }),
      false,
      undefined,
      ids,
    );
    expect(misspelt.summary.stopReason).toMatchObject({ code: 'SOURCE_LAYOUT', exitCode: 2 });
    expect(stored()[name]).toBeUndefined();
    const path = feed({ name, bankAccount: name, purpose: '{ columns: [Buchungstext] }' });
    writeFileSync(path, readFileSync(path, 'utf8').replace('accountId: 1001', 'accountId: 4242'));
    const unknownAccount = await h.run(path, false, undefined, ids);
    expect(unknownAccount.summary.stopReason?.exitCode).toBe(2);
    expect(stored()[name]).toBeUndefined();
    const dry = await h.run(feed({ name, bankAccount: name, purpose: 'Buchungstext' }), true, undefined, ids);
    expect(dry.summary.stopReason).toBeUndefined();
    expect(stored()[name]).toBeUndefined();

    const fixed = await h.run(feed({ name, bankAccount: name }), false, undefined, ids);
    expect(fixed.summary.stopReason).toBeUndefined();
    expect(fixed.summary.counts.created).toBe(4);
    expect((stored()[name] as { fields: Record<string, string> }).fields.purpose).toBe(
      'columns ["Buchungstext", "Verwendungszweck"]',
    );
  });

  it('an unreadable identity settings file stops the run (exit 2) naming the file', async () => {
    const saved = readFileSync(store.path, 'utf8');
    writeFileSync(store.path, '{"identity-settings": {"scheme": 7}}');
    try {
      const run = await h.run(feed(), false, undefined, { identity: { store, accept: false } });
      expect(run.summary.stopReason).toMatchObject({ code: 'IDENTITY_STATE_UNREADABLE', exitCode: 2 });
      expect(run.summary.stopReason?.message).toContain('.feed-identity.json');
      expect(run.summary.counts.created).toBe(0);
    } finally {
      writeFileSync(store.path, saved);
    }
  });
});
