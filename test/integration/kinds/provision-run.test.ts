import { afterEach, describe, expect, it } from 'vitest';
import type { OperationName } from '../../../src/contract/index.js';
import { failingFindings } from '../../../src/ops/alerts/feed-health.js';
import type { AccountRecord, SandboxState } from '../../../src/sandbox/state.js';
import { fleetTestWorld } from '../../support/fleet-harness.js';
import { captureLogs } from '../../support/log-capture.js';
import { expectNoDuplicates, linesWith } from '../../support/run-checks.js';
import { namedFiles } from '../../support/source-files.js';
import { type SyncHarness, syncHarness } from '../../support/sync-harness.js';

let h: SyncHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/**
 * A tenant provisioned from three CSV exports: two customer accounts (accounts feed, no accountId),
 * their users and their category trees, each record naming its account by externalId (no accountId
 * either). `tag` keeps the externalIds and emails of one test apart from the seed's.
 */
function provisioningFeeds(tag: string) {
  const { write } = namedFiles('provision');
  write('tenants.csv', [
    'id;company;admin_id;admin_email;admin_first;admin_last',
    `${tag}-a;Alpha GmbH;boss;boss@${tag}-a.test;Ada;Alpha`,
    `${tag}-b;Beta AG;boss;boss@${tag}-b.test;Ben;Beta`,
  ]);
  write('users.csv', [
    'tenant;id;email;first;last;role',
    `${tag}-a;u-1;u1@${tag}-a.test;Uma;One;USER`,
    `${tag}-a;u-2;u2@${tag}-a.test;Udo;Two;CONTRIBUTOR`,
    // The same externalId in another account is another user.
    `${tag}-b;u-1;u1@${tag}-b.test;Ute;One;INVESTOR`,
  ]);
  write('categories.csv', [
    'tenant;path;type',
    `${tag}-a;Consulting/Workshops;INCOME_OPERATIONAL`,
    `${tag}-a;Consulting;INCOME_OPERATIONAL`,
    `${tag}-b;Consulting;INCOME_OPERATIONAL`,
    `${tag}-b;Office/Rent;EXPENSE_OPERATIONAL`,
    `${tag}-b;Office;EXPENSE_OPERATIONAL`,
  ]);
  const feed = (name: string, lines: string[]) => write(`${name}.yaml`, [`name: ${tag}-${name}`, ...lines]);
  return {
    tenants: feed('tenants', [
      'kind: accounts',
      'source: {path: tenants.csv, format: csv, delimiter: ";"}',
      'mapping: {externalId: id, companyName: company, adminExternalId: admin_id, adminEmail: admin_email, adminFirstName: admin_first, adminLastName: admin_last}',
    ]),
    users: feed('users', [
      'kind: users',
      'source: {path: users.csv, format: csv, delimiter: ";"}',
      'mapping: {accountExternalId: tenant, externalId: id, email: email, firstName: first, lastName: last, role: role}',
    ]),
    categories: feed('categories', [
      'kind: categories',
      'source: {path: categories.csv, format: csv, delimiter: ";"}',
      'mapping: {accountExternalId: tenant, path: path, type: type}',
    ]),
  };
}

const tenant = (state: SandboxState, externalId: string): AccountRecord => {
  const found = [...state.accounts.values()].filter((a) => a.externalId === externalId);
  expect(found, `account ${externalId}`).toHaveLength(1);
  return found[0] as AccountRecord;
};
const usersOf = (account: AccountRecord) =>
  [...account.users.values()].map((u) => `${u.externalId}:${u.role}`).sort();
const categoryNamesOf = (account: AccountRecord, parent: string) => {
  const all = [...account.categories.values()];
  const top = all.find((c) => c.name === parent && c.parentId === null);
  return top ? [top.type, ...all.filter((c) => c.parentId === top.id).map((c) => c.name)] : [];
};

describe('provisioning a tenant from CSV through the in-process runner', () => {
  it('dry run sends nothing; accounts, then users and categories by account externalId; a rerun changes nothing', async () => {
    h = await syncHarness();
    const feeds = provisioningFeeds('ip');
    const dry = await h.run(feeds.tenants, true);
    expect(dry.summary.wouldSend).toBe(2);
    expect(h.requests('createAccount')).toEqual({});

    const accounts = await h.run(feeds.tenants);
    expect(accounts.summary.counts).toMatchObject({ created: 2, failed: 0, rejected: 0 });
    expect(accounts.summary.accountId).toBe(0);
    const users = await h.run(feeds.users);
    expect(users.summary.counts).toMatchObject({ created: 3, failed: 0, rejected: 0 });
    const categories = await h.run(feeds.categories);
    expect(categories.summary.counts).toMatchObject({ created: 5, failed: 0, rejected: 0 });

    const state = h.sandbox.runtime.state;
    const [a, b] = [tenant(state, 'ip-a'), tenant(state, 'ip-b')];
    expect(a.companyName).toBe('Alpha GmbH');
    expect(usersOf(a)).toEqual(['boss:ADMIN', 'u-1:USER', 'u-2:CONTRIBUTOR']);
    expect(usersOf(b)).toEqual(['boss:ADMIN', 'u-1:INVESTOR']);
    expect(categoryNamesOf(a, 'Consulting')).toEqual(['INCOME_OPERATIONAL', 'Workshops']);
    expect(categoryNamesOf(b, 'Office')).toEqual(['EXPENSE_OPERATIONAL', 'Rent']);
    expect(categoryNamesOf(b, 'Consulting')).toEqual(['INCOME_OPERATIONAL']);

    // A dry run now predicts skips, read in each record's own account.
    const dryUsers = await h.run(feeds.users, true);
    expect(dryUsers.summary.counts).toMatchObject({ skipped: 3 });
    for (const feed of [feeds.tenants, feeds.users, feeds.categories]) {
      const again = await h.run(feed);
      expect(again.summary.counts).toMatchObject({ created: 0, updated: 0, failed: 0, rejected: 0 });
    }
    expect(h.requests('createAccount')).toEqual({ 200: 2 });
    expect(h.requests('createUser')).toEqual({ 200: 3 });
    expect(h.requests('createCategory')).toEqual({ 200: 5 });
  });

  it('a feed with its own accountId: a record naming no account goes there, the others to theirs', async () => {
    h = await syncHarness();
    const feeds = provisioningFeeds('own');
    await h.run(feeds.tenants);
    const { write } = namedFiles('provision-own');
    write('users.csv', [
      'tenant;id;email;first;last;role',
      'own-a;u-7;u7@own-a.test;Sam;Seven;USER',
      ';u-8;u8@own.test;Eve;Eight;USER',
    ]);
    const mixed = write('users.yaml', [
      'name: own-users',
      'accountId: 1002',
      'kind: users',
      'source: {path: users.csv, format: csv, delimiter: ";"}',
      'mapping: {accountExternalId: tenant, externalId: id, email: email, firstName: first, lastName: last, role: role}',
    ]);
    const run = await h.run(mixed);
    expect(run.summary.counts).toMatchObject({ created: 2, failed: 0, rejected: 0 });
    const state = h.sandbox.runtime.state;
    expect(usersOf(tenant(state, 'own-a'))).toContain('u-7:USER');
    expect(usersOf(tenant(state, 'own-a'))).not.toContain('u-8:USER');
    expect(usersOf(tenant(state, 'demo-2'))).toContain('u-8:USER');
    expect(usersOf(tenant(state, 'demo-2'))).not.toContain('u-7:USER');
  });

  it('an unknown account fails (retried next run); MAX_USERS_REACHED of one account spares the others', async () => {
    h = await syncHarness();
    const feeds = provisioningFeeds('lim');
    const early = await h.run(feeds.users);
    expect(early.summary.counts).toMatchObject({ failed: 3 });
    expect(new Set(early.outcomes.map((o) => o.code))).toEqual(new Set(['ACCOUNT_NOT_FOUND']));
    expect(early.outcomes[0]?.message).toContain(
      'no customer account of the partner has externalId "lim-a" (yet)',
    );

    await h.run(feeds.tenants);
    tenant(h.sandbox.runtime.state, 'lim-a').subscriptionInformation.maxAllowedUsers = 2; // the admin counts
    const limited = await h.run(feeds.users);
    expect(limited.summary.state).not.toBe('stopped');
    expect(linesWith(limited, 'created')).toEqual([2, 4]);
    expect(limited.outcomes.find((o) => o.line === 3)).toMatchObject({
      outcome: 'failed',
      code: 'MAX_USERS_REACHED',
    });
    expect(limited.outcomes.find((o) => o.line === 3)?.message).toMatch(
      /^not sent, account "lim-a" has no user slot left: .*no user slot left/,
    );
    expect(usersOf(tenant(h.sandbox.runtime.state, 'lim-b'))).toEqual(['boss:ADMIN', 'u-1:INVESTOR']);
  });

  it('MAX_USERS_REACHED across chunks: one alert per run, and later chunks send that account nothing', async () => {
    const logs = captureLogs();
    h = await syncHarness({}, { logger: logs.logger });
    const feeds = provisioningFeeds('many');
    await h.run(feeds.tenants);
    tenant(h.sandbox.runtime.state, 'many-a').subscriptionInformation.maxAllowedUsers = 2; // the admin counts
    // 1,002 users of one account: two chunks (1,000 + 2), one after the other.
    const { write } = namedFiles('provision');
    write('many-users.csv', [
      'tenant;id;email;first;last;role',
      ...Array.from({ length: 1002 }, (_, i) => `many-a;m-${i};m${i}@many-a.test;Max;No${i};USER`),
    ]);
    const feed = write('many-users.yaml', [
      'name: many-users',
      'kind: users',
      'concurrency: 1',
      'source: {path: many-users.csv, format: csv, delimiter: ";"}',
      'mapping: {accountExternalId: tenant, externalId: id, email: email, firstName: first, lastName: last, role: role}',
    ]);
    const before = h.requests('createUser');
    const run = await h.run(feed);
    expect(run.summary.counts).toMatchObject({ created: 1, failed: 1001 });
    expect(new Set(run.outcomes.filter((o) => o.outcome === 'failed').map((o) => o.code))).toEqual(
      new Set(['MAX_USERS_REACHED']),
    );
    // The second chunk's two users: failed with the account's stop, never sent.
    for (const line of [1002, 1003])
      expect(run.outcomes.find((o) => o.line === line)?.message).toMatch(
        /^not sent, account "many-a" has no user slot left/,
      );
    const after = h.requests('createUser');
    const sent = (status: string) => (after[status] ?? 0) - (before[status] ?? 0);
    // One create that succeeded, one refused with MAX_USERS_REACHED; nothing after that.
    expect(sent('200')).toBe(1);
    expect(
      Object.keys(after)
        .filter((status) => status !== '200')
        .map(sent)
        .reduce((a, b) => a + b, 0),
    ).toBe(1);
    const alerts = logs.entries().filter((e) => e.alert === true && e.code === 'MAX_USERS_REACHED');
    expect(alerts).toHaveLength(1);
    // The feed's health alert says what happened: the plan's user limit, not a service error.
    const [failing] = failingFindings(run.summary, 1);
    expect(failing?.message).toMatch(
      /^1001 records failed \(MAX_USERS_REACHED: .*the user limit of the customer's plan is reached/,
    );
    expect(failing?.message).not.toContain('service errors or lost answers');
  });

  it('random 500s, resets and lost answers on creates and listings: nothing created twice, all there in the end', async () => {
    const ops: OperationName[] = [
      'createAccount',
      'listAccounts',
      'createUser',
      'listUsers',
      'createCategory',
      'listCategories',
    ];
    h = await syncHarness({
      seed: 16,
      fail500: { rate: 0.25, ops },
      reset: { rate: 0.15, ops },
      commitThenFail: { rate: 0.4, mode: 'reset', ops: ['createAccount', 'createUser', 'createCategory'] },
      rateLimit: { capacity: 4, refillPerSecond: 2, ops },
    });
    const feeds = provisioningFeeds('flt');
    for (let round = 0; round < 3; round++)
      for (const feed of [feeds.tenants, feeds.users, feeds.categories]) await h.run(feed);
    const state = h.sandbox.runtime.state;
    expectNoDuplicates([...state.accounts.values()]);
    const faulted = h.requests('createAccount');
    expect((faulted['500'] ?? 0) + (faulted.reset ?? 0), 'the faults hit account creates').toBeGreaterThan(0);
    h.setFaults();
    for (const feed of [feeds.tenants, feeds.users, feeds.categories]) {
      const last = await h.run(feed);
      expect(last.summary.counts).toMatchObject({ created: 0, failed: 0, rejected: 0 });
    }
    const [a, b] = [tenant(state, 'flt-a'), tenant(state, 'flt-b')];
    expectNoDuplicates([...a.users.values()]);
    expect(usersOf(a)).toEqual(['boss:ADMIN', 'u-1:USER', 'u-2:CONTRIBUTOR']);
    expect(usersOf(b)).toEqual(['boss:ADMIN', 'u-1:INVESTOR']);
    expect(categoryNamesOf(a, 'Consulting')).toEqual(['INCOME_OPERATIONAL', 'Workshops']);
    expect(categoryNamesOf(b, 'Office')).toEqual(['EXPENSE_OPERATIONAL', 'Rent']);
  });
});

describe('provisioning a tenant through the fleet', () => {
  const world = fleetTestWorld();

  it('accounts, then users and categories naming them: created once, a reimport creates nothing', async () => {
    const feeds = provisioningFeeds('fleet');
    const fleet = world.start();
    fleet.worker(2);
    for (const feed of [feeds.tenants, feeds.users, feeds.categories]) {
      const [run] = await fleet.enqueue(feed);
      const summary = await fleet.finished(String(run?.runId));
      expect(summary.counts).toMatchObject({ failed: 0, rejected: 0 });
      const [again] = await fleet.enqueue(feed, { reimport: true });
      const twice = await fleet.finished(String(again?.runId));
      expect(twice.counts).toMatchObject({ created: 0, failed: 0, rejected: 0 });
    }
    const state = world.sandbox().runtime.state;
    expect(usersOf(tenant(state, 'fleet-a'))).toEqual(['boss:ADMIN', 'u-1:USER', 'u-2:CONTRIBUTOR']);
    expect(usersOf(tenant(state, 'fleet-b'))).toEqual(['boss:ADMIN', 'u-1:INVESTOR']);
    expect(categoryNamesOf(tenant(state, 'fleet-b'), 'Office')).toEqual(['EXPENSE_OPERATIONAL', 'Rent']);
  });
});
