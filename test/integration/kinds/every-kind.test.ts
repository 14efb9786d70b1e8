import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KINDS, RECORD_KINDS, type RecordKind } from '../../../src/kinds/registry.js';
import type { AccountRecord } from '../../../src/sandbox/state.js';
import { fleetTestWorld } from '../../support/fleet-harness.js';
import { type SyncHarness, syncHarness } from '../../support/sync-harness.js';

const ACCOUNT = 1001;
const ROWS = 3;

/**
 * A small export of one kind: the feed's kind-specific part (YAML, after name, accountId, kind and
 * source), its CSV with ROWS records named by `prefix`, and what the sandbox then holds of them.
 * Typed per registered kind: a kind added to the registry without a fixture does not compile.
 */
interface KindFixture {
  feed: string;
  csv(prefix: string): string;
  /** `all`: every account of the sandbox, for the partner's own records (accounts). */
  stored(account: AccountRecord, prefix: string, all: readonly AccountRecord[]): number;
  /**
   * What a rerun of the same file reports. Plans have no ID in the API: a replace feed sets the
   * same values again (created, nothing doubled); every other kind finds its records and skips them.
   */
  rerun: 'skipped' | 'created';
}

const rows = (header: string, row: (i: number) => string) =>
  [header, ...Array.from({ length: ROWS }, (_, i) => row(i + 1))].join('\n');

const FIXTURES: Record<RecordKind, KindFixture> = {
  transactions: {
    feed: [
      'mapping: {externalId: id, bookingDate: date, amount: amount, purpose: purpose}',
      'bankAccount: {externalId: every-kind-target, accountName: Every kind, bankName: Test bank}',
    ].join('\n'),
    csv: (p) => rows('id,date,amount,purpose', (i) => `${p}-${i},2026-03-0${i},-${i}.50,payment ${i}`),
    stored: (account, p) =>
      [...account.transactions.values()].flat().filter((t) => t.externalId.startsWith(`${p}-`)).length,
    rerun: 'skipped',
  },
  invoices: {
    feed: 'mapping: {externalId: id, invoiceType: {const: SALES_INVOICE}, invoiceNumber: number, contactName: contact, totalGrossAmount: total}',
    csv: (p) => rows('id,number,contact,total', (i) => `${p}-${i},${p}-R${i},Customer ${i},${i}00.00`),
    stored: (account, p) =>
      [...account.invoices.values()].filter((inv) => inv.externalId?.startsWith(`${p}-`)).length,
    rerun: 'skipped',
  },
  plans: {
    feed: 'mapping: {externalId: id, name: name, amount: amount, period: {const: MONTHLY}, date: month}',
    csv: (p) => rows('id,name,amount,month', (i) => `${p}-${i},${p} plan ${i},-${i}000,2026-0${i}-01`),
    stored: (account, p) =>
      [...account.plans.values()].filter((plan) => plan.name.startsWith(`${p} `)).length,
    rerun: 'created',
  },
  'bank-accounts': {
    feed: 'mapping: {externalId: id, accountName: name, bankName: bank}',
    csv: (p) => rows('id,name,bank', (i) => `${p}-${i},Account ${i},Bank ${i}`),
    stored: (account, p) =>
      [...account.bankAccounts.values()].filter((b) => b.externalId?.startsWith(`${p}-`)).length,
    rerun: 'skipped',
  },
  users: {
    feed: 'mapping: {externalId: id, email: email, firstName: first, lastName: last}',
    csv: (p) => rows('id,email,first,last', (i) => `${p}-${i},${p}-${i}@example.test,Uma,User ${i}`),
    stored: (account, p) =>
      [...account.users.values()].filter((u) => u.externalId.startsWith(`${p}-`)).length,
    rerun: 'skipped',
  },
  accounts: {
    feed: 'mapping: {externalId: id, companyName: company, adminExternalId: {const: admin}, adminEmail: email, adminFirstName: {const: Ada}, adminLastName: last}',
    csv: (p) =>
      rows('id,company,email,last', (i) => `${p}-${i},${p} GmbH ${i},${p}-${i}@example.test,Admin ${i}`),
    stored: (_account, p, all) => all.filter((a) => a.externalId.startsWith(`${p}-`)).length,
    rerun: 'skipped',
  },
  categories: {
    // A parent and its two children, the children first: parents are still created first.
    feed: 'mapping: {path: path, type: {const: EXPENSE_OPERATIONAL}}',
    csv: (p) => [`path`, `${p}/Child 1`, `${p}/Child 2`, p].join('\n'),
    stored: (account, p) => {
      const top = [...account.categories.values()].find((c) => c.name === p && c.parentId === null);
      const children = [...account.categories.values()].filter((c) => c.parentId === top?.id);
      return top ? 1 + children.length : 0;
    },
    rerun: 'skipped',
  },
};

/** The kind's feed and export in a fresh temp folder (the fleet's feed directory is tmpdir()). */
function writeFeed(kind: RecordKind, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `erp-bridge-every-kind-${kind}-`));
  const fixture = FIXTURES[kind];
  writeFileSync(join(dir, 'export.csv'), `${fixture.csv(prefix)}\n`);
  const feed = [
    `name: every-kind-${prefix}`,
    // A partner-scope kind (accounts) writes in no customer account: its feeds name none.
    ...(KINDS[kind].scope === 'partner' ? [] : [`accountId: ${ACCOUNT}`]),
    `kind: ${kind}`,
    'source: {path: export.csv, format: csv}',
    fixture.feed,
  ].join('\n');
  writeFileSync(join(dir, 'feed.yaml'), `${feed}\n`);
  return join(dir, 'feed.yaml');
}

type State = { accounts: Map<number, AccountRecord> };

const accountOf = (state: State): AccountRecord => {
  const account = state.accounts.get(ACCOUNT);
  if (!account) throw new Error(`sandbox account ${ACCOUNT} missing`);
  return account;
};

const storedIn = (fixture: KindFixture, state: State, prefix: string): number =>
  fixture.stored(accountOf(state), prefix, [...state.accounts.values()]);

describe('every registered kind through the in-process runner (sync)', () => {
  let h: SyncHarness;
  beforeAll(async () => {
    h = await syncHarness();
  });
  afterAll(() => h.close());

  it.each([...RECORD_KINDS])('%s: created once, a rerun creates nothing twice', async (kind) => {
    const prefix = `ip-${kind}`;
    const feedFile = writeFeed(kind, prefix);
    const fixture = FIXTURES[kind];
    const first = await h.run(feedFile);
    expect(first.summary.counts).toMatchObject({ created: ROWS, failed: 0, rejected: 0 });
    expect(storedIn(fixture, h.sandbox.runtime.state, prefix)).toBe(ROWS);
    const second = await h.run(feedFile);
    expect(second.summary.counts).toMatchObject({ [fixture.rerun]: ROWS, failed: 0, rejected: 0 });
    expect(storedIn(fixture, h.sandbox.runtime.state, prefix)).toBe(ROWS);
  });
});

describe('every registered kind through the fleet (enqueue, import job, chunk jobs)', () => {
  const world = fleetTestWorld();

  it.each([...RECORD_KINDS])('%s: created once, a reimport creates nothing twice', async (kind) => {
    const prefix = `fleet-${kind}`;
    const feedFile = writeFeed(kind, prefix);
    const fixture = FIXTURES[kind];
    const fleet = world.start();
    fleet.worker(2);
    const [first] = await fleet.enqueue(feedFile);
    const once = await fleet.finished(String(first?.runId));
    expect(once.counts).toMatchObject({ created: ROWS, failed: 0, rejected: 0 });
    expect(storedIn(fixture, world.sandbox().runtime.state, prefix)).toBe(ROWS);
    const [again] = await fleet.enqueue(feedFile, { reimport: true });
    const twice = await fleet.finished(String(again?.runId));
    expect(twice.counts).toMatchObject({ [fixture.rerun]: ROWS, failed: 0, rejected: 0 });
    expect(storedIn(fixture, world.sandbox().runtime.state, prefix)).toBe(ROWS);
  });
});
