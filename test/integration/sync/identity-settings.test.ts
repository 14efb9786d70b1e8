import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../../src/cli/commands/sync-run.js';
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

type Harness = Awaited<ReturnType<typeof syncHarness>>;
const bankAccountIn = (h: Harness, externalId: string) =>
  [...(h.sandbox.runtime.state.accounts.get(1001)?.bankAccounts.values() ?? [])].find(
    (b) => b.externalId === externalId,
  );
const transactionsIn = (h: Harness, externalId: string) => {
  const bank = bankAccountIn(h, externalId);
  return bank ? (h.sandbox.runtime.state.accounts.get(1001)?.transactions.get(bank.id) ?? []) : [];
};

describe('identity settings change detection (in-process)', () => {
  let h: Awaited<ReturnType<typeof syncHarness>>;
  let store: FileIdentityStore;
  const stored = () => JSON.parse(readFileSync(store.path, 'utf8')) as Record<string, unknown>;
  const bankAccount = (externalId: string) => bankAccountIn(h, externalId);
  const transactionsOf = (externalId: string) => transactionsIn(h, externalId);
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
        // Where source IDs come from is an identity setting too: here none, IDs are derived.
        externalId: 'not mapped',
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

/**
 * Where records' own IDs come from is an identity setting (session 10 found it was not): another
 * ID column, or none, gives every record another ID, and the next run created them all again.
 */
// Two ID columns: Ref and Copy hold the same values, Other different ones.
const WITH_IDS = `${CSV.split('\n')
  .map((line, i) =>
    line === '' ? line : i === 0 ? `${line};Copy;Other` : `${line};${line.split(';')[0]};X${i}`,
  )
  .join('\n')}`;
const withId = (name: string, id: string | undefined) => {
  const path = feed({ name, bankAccount: name });
  writeFileSync(join(dirname(path), 'export.csv'), WITH_IDS);
  const yaml = readFileSync(path, 'utf8');
  writeFileSync(
    path,
    id === undefined ? yaml : yaml.replace('mapping:\n', `mapping:\n  externalId: ${id}\n`),
  );
  return path;
};

type IdentityEntry = { fields: Record<string, string>; mappings?: Record<string, unknown> };

/** A sandbox of its own (5 bank accounts at most per account) with the identity store beside its reports. */
function sourceIdHarness() {
  let h: Awaited<ReturnType<typeof syncHarness>>;
  let store: FileIdentityStore;
  beforeAll(async () => {
    h = await syncHarness();
    store = new FileIdentityStore(h.reportDir);
  });
  afterAll(() => h.close());
  return {
    run: (path: string) => h.run(path, false, undefined, { identity: { store, accept: false } }),
    transactionsOf: (externalId: string) => transactionsIn(h, externalId),
    stored: () => JSON.parse(readFileSync(store.path, 'utf8')) as Record<string, IdentityEntry>,
    get store() {
      return store;
    },
  };
}

describe('the source ID mapping is an identity setting', () => {
  const t = sourceIdHarness();
  const { run: runFeed, transactionsOf, stored } = t;

  it('another ID column, or none, stops the run naming the change and the records held under the old IDs', async () => {
    const name = 'source-id-changed';
    const first = await runFeed(withId(name, 'Ref'));
    expect(first.summary.counts.created).toBe(4);
    expect(stored()[name]?.fields.externalId).toBe('column "Ref"');
    expect(stored()[name]?.mappings?.externalId).toBe('Ref');
    for (const [id, line] of [
      ['Other', 'externalId: column "Ref" -> column "Other"'],
      [undefined, 'externalId: column "Ref" -> not mapped'],
    ] as const) {
      const run = await runFeed(withId(name, id));
      expect(run.summary.stopReason).toMatchObject({ code: 'IDENTITY_CHANGED', exitCode: 2 });
      expect(run.summary.stopReason?.message).toContain(line);
      expect(run.summary.stopReason?.message).toContain(
        '4 record(s) of this run are in the service under the old IDs and would be created again',
      );
      expect(run.summary.counts.created).toBe(0);
      expect(transactionsOf(name)).toHaveLength(4);
    }
    expect(stored()[name]?.fields.externalId).toBe('column "Ref"');
  });

  it('derived IDs replaced by an ID column stop too: the service holds the records under their derived IDs', async () => {
    const name = 'source-id-added';
    expect((await runFeed(withId(name, undefined))).summary.counts.created).toBe(4);
    expect(stored()[name]?.fields.externalId).toBe('not mapped');
    const run = await runFeed(withId(name, 'Ref'));
    expect(run.summary.stopReason?.code).toBe('IDENTITY_CHANGED');
    expect(run.summary.stopReason?.message).toContain('externalId: not mapped -> column "Ref"');
    expect(transactionsOf(name)).toHaveLength(4);
  });

  it('another column with the same IDs changes no record: the run goes on and creates nothing', async () => {
    const name = 'source-id-same-values';
    expect((await runFeed(withId(name, 'Ref'))).summary.counts.created).toBe(4);
    const run = await runFeed(withId(name, 'Copy'));
    expect(run.summary.stopReason).toBeUndefined();
    expect(run.summary.counts).toMatchObject({ created: 0, skipped: 4 });
    expect(transactionsOf(name)).toHaveLength(4);
  });

  it('settings stored before the source ID was kept do not compare it: an upgrade stops no feed', async () => {
    const name = 'source-id-old-entry';
    expect((await runFeed(withId(name, 'Ref'))).summary.counts.created).toBe(4);
    const all = stored();
    const entry = all[name] as IdentityEntry;
    delete entry.fields.externalId;
    delete entry.mappings?.externalId;
    writeFileSync(t.store.path, JSON.stringify(all));
    const run = await runFeed(withId(name, 'Ref'));
    expect(run.summary.stopReason).toBeUndefined();
    expect(run.summary.counts).toMatchObject({ created: 0, skipped: 4 });
  });
});

describe('an ID column renamed in the export and the mapping at once', () => {
  const t = sourceIdHarness();
  const { run: runFeed, transactionsOf, stored } = t;

  it('records held under their new IDs go on, the rest bounds the stop', async () => {
    const name = 'source-id-renamed';
    expect((await runFeed(withId(name, 'Ref'))).summary.counts.created).toBe(4);
    const path = withId(name, 'Id');
    const exportPath = join(dirname(path), 'export.csv');
    writeFileSync(exportPath, WITH_IDS.replace(/^Ref;/, 'Id;'));
    const run = await runFeed(path);
    expect(run.summary.stopReason).toBeUndefined();
    expect(run.summary.counts).toMatchObject({ created: 0, skipped: 4 });
    expect(transactionsOf(name)).toHaveLength(4);
    // It wrote nothing, so the settings it was checked under are not stored (docs/identity.md).
    expect(stored()[name]?.fields.externalId).toBe('column "Ref"');

    // A new row beside them: its ID is not held, so the stop names it alone, as an upper bound.
    writeFileSync(
      exportPath,
      `${WITH_IDS.replace(/^Ref;/, 'Id;')}R9;06.04.2018;-9,00;KARTENZAHLUNG;Neu;Neu GmbH;R9;X9\n`,
    );
    const more = await runFeed(path);
    expect(more.summary.stopReason).toMatchObject({ code: 'IDENTITY_CHANGED', exitCode: 2 });
    expect(more.summary.stopReason?.message).toContain(
      '1 record(s) of this run would get new IDs and be created again beside those already in the service (an upper bound: the service could not be asked which of them it holds under the old IDs: the old settings do not fit',
    );
    expect(more.summary.stopReason?.message).toContain(
      '; 4 more the service already holds under their new IDs are skipped)',
    );
    expect(transactionsOf(name)).toHaveLength(4);
  });
});
