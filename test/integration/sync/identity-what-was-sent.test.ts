import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FileIdentityStore } from '../../../src/in-process/identity-file-store.js';
import { captureLogs } from '../../support/log-capture.js';
import { syncHarness } from '../../support/sync-harness.js';

/**
 * Issue 26 point 5: the identity settings follow what was sent. They are stored before a run's
 * first write request (a run whose writes all fail still sent them), and a change counts only
 * the records the service holds under their old derived IDs.
 */
const work = mkdtempSync(join(tmpdir(), 'erp-bridge-identity-sent-'));
const HEADER = 'Buchungstag;Betrag;Buchungstext;Verwendungszweck';
const ROWS = [
  '03.04.2018;-1.234,50;LASTSCHRIFT;Miete April',
  '05.04.2018;-22,59;KARTENZAHLUNG;EDEKA',
  '06.04.2018;-3,00;KARTENZAHLUNG;Kantine',
  '07.04.2018;-9,90;LASTSCHRIFT;Telefon',
  '08.04.2018;-15,00;KARTENZAHLUNG;Tankstelle',
  '09.04.2018;-42,00;UEBERWEISUNG;Verein',
];
const OLD = '{ columns: [Buchungstext, Verwendungszweck] }';
const NEW = '{ columns: [Verwendungszweck] }';

let n = 0;
/** A feed `name` (its own bank account) over an export of `rows`, purpose from `purpose`. */
function feed(name: string, purpose: string, rows: readonly string[]): string {
  const dir = join(work, `case-${n++}`);
  mkdirSync(dir);
  writeFileSync(join(dir, 'export.csv'), `${[HEADER, ...rows].join('\n')}\n`);
  const path = join(dir, 'feed.yaml');
  writeFileSync(
    path,
    `name: ${name}
accountId: 1001
kind: transactions
source: { path: "*.csv", format: csv, delimiter: ";", decimalSeparator: ",", dateFormat: dd.MM.yyyy }
mapping: { bookingDate: Buchungstag, amount: Betrag, purpose: ${purpose} }
bankAccount: { externalId: ${name}, accountName: Sent, bankName: Testbank }
`,
  );
  return path;
}

describe('identity settings follow what was sent (in process)', () => {
  let h: Awaited<ReturnType<typeof syncHarness>>;
  let store: FileIdentityStore;
  const logs = captureLogs();
  const ids = () => ({ identity: { store, accept: false } });
  const stored = (name: string) =>
    (JSON.parse(readFileSync(store.path, 'utf8')) as Record<string, { fields: Record<string, string> }>)[
      name
    ];
  const transactionsOf = (name: string) => {
    const account = h.sandbox.runtime.state.accounts.get(1001);
    const bank = [...(account?.bankAccounts.values() ?? [])].find((b) => b.externalId === name);
    return bank ? [...(account?.transactions.get(bank.id)?.values() ?? [])] : [];
  };
  beforeAll(async () => {
    h = await syncHarness({}, { logger: logs.logger });
    store = new FileIdentityStore(h.reportDir);
  });
  afterAll(() => h.close());
  // Each case its own bank account: the sandbox's subscription allows five.
  afterEach(() => h.sandbox.runtime.reset());

  it('a first run whose every create fails (500, nothing applied) has stored the settings it sent under', async () => {
    const name = 'sent-all-500';
    h.setFaults({ fail500: { rate: 1, ops: ['createTransactionsBulk'] } });
    try {
      const run = await h.run(feed(name, OLD, ROWS.slice(0, 4)), false, undefined, ids());
      expect(run.summary.counts).toMatchObject({ created: 0, failed: 4 });
    } finally {
      h.setFaults();
    }
    expect(transactionsOf(name)).toHaveLength(0);
    expect(stored(name)?.fields.purpose).toBe('columns ["Buchungstext", "Verwendungszweck"]');
    // Nothing of it is in the service: the changed feed goes on (nothing would be duplicated).
    const changed = await h.run(feed(name, NEW, ROWS.slice(0, 4)), false, undefined, ids());
    expect(changed.summary.stopReason).toBeUndefined();
    expect(changed.summary.counts.created).toBe(4);
    expect(stored(name)?.fields.purpose).toBe('columns ["Verwendungszweck"]');
  });

  it('a first run whose creates landed but whose answers were lost (and re-checks failed) stops the changed run', async () => {
    const name = 'sent-lost';
    // The create is applied and its answer lost; every re-check then fails: the records end
    // failed, yet the service holds them.
    h.setFaults({
      script: [
        { op: 'createTransactionsBulk', fault: 'commit-then-reset' },
        { op: 'checkTransactionsExist', fault: '500', times: 1000 },
      ],
    });
    try {
      const run = await h.run(feed(name, OLD, ROWS.slice(0, 4)), false, undefined, ids());
      expect(run.summary.counts).toMatchObject({ created: 0, failed: 4 });
    } finally {
      h.setFaults();
    }
    expect(transactionsOf(name)).toHaveLength(4);
    const changed = await h.run(feed(name, NEW, ROWS.slice(0, 4)), false, undefined, ids());
    expect(changed.summary.stopReason).toMatchObject({ code: 'IDENTITY_CHANGED', exitCode: 2 });
    expect(changed.summary.stopReason?.message).toContain(
      '4 record(s) of this run are in the service under the old derived IDs',
    );
    expect(transactionsOf(name)).toHaveLength(4);
  });

  it('counts only the records the service holds under their old derived IDs', async () => {
    const name = 'sent-partly';
    const first = await h.run(feed(name, OLD, ROWS.slice(0, 3)), false, undefined, ids());
    expect(first.summary.counts.created).toBe(3);
    // Two of the first run's rows and three new ones: two would be created a second time.
    const changed = await h.run(
      feed(name, NEW, [ROWS[0], ...ROWS.slice(2)] as string[]),
      false,
      undefined,
      ids(),
    );
    expect(changed.summary.stopReason).toMatchObject({ code: 'IDENTITY_CHANGED', exitCode: 2 });
    expect(changed.summary.stopReason?.message).toContain(
      'purpose: columns ["Buchungstext", "Verwendungszweck"] -> columns ["Verwendungszweck"]): 2 record(s) of this run are in the service under the old derived IDs and would be created again',
    );
    expect(changed.summary.counts).toMatchObject({ created: 0, failed: 5 });
    expect(transactionsOf(name)).toHaveLength(3);
    expect(stored(name)?.fields.purpose).toBe('columns ["Buchungstext", "Verwendungszweck"]');
  });

  it('goes on when the service holds none of them under the old IDs, says so, and stores the new settings', async () => {
    const name = 'sent-none';
    const first = await h.run(feed(name, OLD, ROWS.slice(0, 3)), false, undefined, ids());
    expect(first.summary.counts.created).toBe(3);
    const changed = await h.run(feed(name, NEW, ROWS.slice(3)), false, undefined, ids());
    expect(changed.summary.stopReason).toBeUndefined();
    expect(changed.summary.counts.created).toBe(3);
    expect(transactionsOf(name)).toHaveLength(6);
    expect(stored(name)?.fields.purpose).toBe('columns ["Verwendungszweck"]');
    const said = logs
      .entries()
      .find((e) => e.feed === name && String(e.msg).includes('the service holds none'));
    expect(said?.msg).toContain('the run goes on');
    expect(said).toMatchObject({ affected: 3 });
  });

  it('stops with the plain count, an upper bound, when the service cannot be asked', async () => {
    const name = 'sent-unasked';
    const first = await h.run(feed(name, OLD, ROWS.slice(0, 2)), false, undefined, ids());
    expect(first.summary.counts.created).toBe(2);
    h.setFaults({ fail500: { rate: 1, ops: ['checkTransactionsExist'] } });
    try {
      // Four records with a derived ID, of which the service holds two: it cannot say which.
      const changed = await h.run(feed(name, NEW, ROWS.slice(0, 4)), false, undefined, ids());
      expect(changed.summary.stopReason).toMatchObject({ code: 'IDENTITY_CHANGED', exitCode: 2 });
      const message = changed.summary.stopReason?.message ?? '';
      expect(message).toContain(
        '4 record(s) of this run would get new derived IDs and be created again beside those already in the service (an upper bound: the service could not be asked which of them it holds under the old IDs:',
      );
      expect(message).toContain('; nothing was sent.');
    } finally {
      h.setFaults();
    }
    expect(transactionsOf(name)).toHaveLength(2);
  });

  it('an entry stored before the settings were kept in full still loads and stops with the plain count', async () => {
    const name = 'sent-old-entry';
    // As a version before 2026-11-28 stored it: descriptions only. The service holds nothing of
    // the feed, which the full settings would show; without them the stop counts as before.
    const entries = JSON.parse(readFileSync(store.path, 'utf8')) as Record<string, unknown>;
    entries[name] = {
      scheme: 2,
      fields: {
        amount: 'column "Betrag"',
        bookingDate: 'column "Buchungstag"',
        purpose: 'columns ["Buchungstext", "Verwendungszweck"]',
      },
    };
    writeFileSync(store.path, JSON.stringify(entries));
    const changed = await h.run(feed(name, NEW, ROWS.slice(0, 4)), false, undefined, ids());
    expect(changed.summary.stopReason).toMatchObject({ code: 'IDENTITY_CHANGED', exitCode: 2 });
    expect(changed.summary.stopReason?.message).toContain(
      '4 record(s) of this run would get new derived IDs and be created again beside those already in the service; nothing was sent.',
    );
    // Once a run under the fixed feed writes, the entry is stored in full.
    const undone = await h.run(feed(name, OLD, ROWS.slice(0, 4)), false, undefined, ids());
    expect(undone.summary.counts.created).toBe(4);
    expect(stored(name)).toHaveProperty('mappings.purpose.columns', ['Buchungstext', 'Verwendungszweck']);
  });

  it('a store that fails before the first write stops the run (exit 2) with nothing sent', async () => {
    const name = 'sent-unwritable';
    const failing = {
      load: async () => ({ kind: 'none' as const }),
      save: async () => {
        throw new Error('no space left on device');
      },
    };
    const run = await h.run(feed(name, OLD, ROWS.slice(0, 4)), false, undefined, {
      identity: { store: failing, accept: false },
    });
    expect(run.summary.stopReason).toMatchObject({ code: 'IDENTITY_STATE_UNWRITABLE', exitCode: 2 });
    expect(run.summary.stopReason?.message).toContain('no space left on device');
    expect(run.summary.counts).toMatchObject({ created: 0, failed: 4 });
    expect(transactionsOf(name)).toHaveLength(0);
  });
});
