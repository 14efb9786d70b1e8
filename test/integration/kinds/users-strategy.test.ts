import { afterEach, describe, expect, it, vi } from 'vitest';
import { heldUsers } from '../../../src/kinds/users/held.js';
import type { UserPayload, UserRecord } from '../../../src/kinds/users/payload.js';
import { syncUsersChunk } from '../../../src/kinds/users/strategy.js';
import { ChunkStopError } from '../../../src/sync/stop.js';
import type { UpsertOptions } from '../../../src/sync/writes/field-diff.js';
import { ACCOUNT, byOutcome, closeStrategySandboxes, eachOnce, strategySandbox } from './strategy-fixture.js';

afterEach(closeStrategySandboxes);

/** As the mapper builds it: role filled with its implicit default. */
function user(externalId: string, over: Partial<UserPayload> = {}, line = 2): UserRecord {
  const payload: UserPayload = {
    externalId,
    email: `${externalId}@example.test`,
    firstName: 'Uma',
    lastName: `User ${externalId}`,
    role: 'USER',
    ...over,
  };
  return { file: 'users.csv', line, externalId, derivedId: false, payload };
}

const MAPPED = ['externalId', 'email', 'firstName', 'lastName'];
const UPSERT: UpsertOptions = { mode: 'upsert', emptyCellClears: false, mappedFields: MAPPED };

type Sandbox = Awaited<ReturnType<typeof strategySandbox>>;
const usersWith = (sb: Sandbox, externalId: string) =>
  [...sb.account().users.values()].filter((u) => u.externalId === externalId);

async function stopOf(promise: Promise<unknown>): Promise<ChunkStopError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ChunkStopError) return error;
    throw error;
  }
  throw new Error('expected the chunk to stop the run');
}

describe('syncUsersChunk against the sandbox', () => {
  it("creates missing users in the account's company, PATCHes only firstName/lastName, skips the rest", async () => {
    const sb = await strategySandbox();
    const { ctx, client, account, requests } = sb;
    const [company] = account().companies.values();
    const input = [user('erp-1', {}, 2), user('erp-2', { language: 'en-US' }, 3), user('erp-3', {}, 4)];
    const first = await syncUsersChunk(input, UPSERT, ctx);
    expect(eachOnce(first, input)).toBe(true);
    expect(byOutcome(first)).toEqual({ created: 3 });
    for (const o of first) {
      expect(account().users.get(o.serviceId ?? -1)).toMatchObject({
        externalId: o.externalId,
        companyId: company?.id,
        role: 'USER',
      });
    }
    expect(account().users.get(first[1]?.serviceId ?? -1)?.language).toBe('en-US');
    expect(requests('listUsers')).toEqual({ 200: 1 });
    expect(requests('listCompanies')).toEqual({ 200: 1 });

    const spy = vi.spyOn(client, 'updateUser');
    const next = [
      user('erp-1', { lastName: 'Married' }, 2),
      user('erp-2', { language: 'de-DE', role: 'ADMIN' }, 3),
      input[2] as UserRecord,
    ];
    const second = await syncUsersChunk(next, { ...UPSERT, mappedFields: [...MAPPED, 'role'] }, ctx);
    expect(second.map((o) => [o.outcome, o.message])).toEqual([
      ['updated', 'changed: lastName'],
      [
        'skipped',
        'unchanged; differs where the partner API cannot change a user, change it in the service: role (service: USER, record: ADMIN), language (service: en-US, record: de-DE)',
      ],
      ['skipped', 'unchanged'],
    ]);
    expect(spy.mock.calls.map((c) => c[2])).toEqual([{ lastName: 'Married' }]);
    expect(account().users.get(second[0]?.serviceId ?? -1)?.lastName).toBe('Married');
    expect(account().users.get(second[1]?.serviceId ?? -1)?.role).toBe('USER');
    expect(byOutcome(await syncUsersChunk(next, UPSERT, ctx))).toEqual({ skipped: 3 });
    expect(requests('createUser')).toEqual({ 200: 3 });
  });

  it('mode insert skips existing users; mode update rejects missing ones and creates nothing', async () => {
    const { ctx, requests } = await strategySandbox();
    const insert = await syncUsersChunk(
      [user('demo-admin', { email: 'admin@demo.example', lastName: 'X' })],
      { ...UPSERT, mode: 'insert' },
      ctx,
    );
    expect(insert[0]).toMatchObject({ outcome: 'skipped', message: 'exists; feed mode insert' });
    const update = await syncUsersChunk([user('erp-new')], { ...UPSERT, mode: 'update' }, ctx);
    expect(update[0]).toMatchObject({ outcome: 'rejected', code: 'NOT_FOUND_FOR_UPDATE' });
    expect(requests('createUser')).toEqual({});
    expect(requests('updateUser')).toEqual({});
  });

  it('USER_EMAIL_ALREADY_EXISTS rejects the record with the reason, names the holder, and the chunk goes on', async () => {
    const sb = await strategySandbox();
    const input = [user('erp-1', { email: 'admin@demo.example' }), user('erp-2', {}, 3)];
    const outcomes = await syncUsersChunk(input, UPSERT, sb.ctx);
    expect(outcomes.map((o) => [o.outcome, o.code])).toEqual([
      ['rejected', 'USER_EMAIL_ALREADY_EXISTS'],
      ['created', undefined],
    ]);
    expect(outcomes[0]?.message).toMatch(/already in use.*correct the email.*externalId "demo-admin"/);
    expect(usersWith(sb, 'erp-1')).toHaveLength(0);
  });

  it('USER_EXTERNAL_ID_ALREADY_EXISTS on create: looked up, then compared and updated', async () => {
    const sb = await strategySandbox();
    const { ctx, client, account, requests } = sb;
    const [company] = account().companies.values();
    // Someone else creates the user after this chunk's listing.
    const other = user('erp-1', { lastName: 'Old' }).payload;
    vi.spyOn(client, 'listUsers').mockImplementationOnce(async () => {
      await client.createUser(ACCOUNT, { ...other, companyId: company?.id ?? 0 });
      return [];
    });
    const outcomes = await syncUsersChunk([user('erp-1', { lastName: 'New' })], UPSERT, ctx);
    expect(outcomes[0]).toMatchObject({
      outcome: 'updated',
      message:
        'the service already holds externalId "erp-1" (USER_EXTERNAL_ID_ALREADY_EXISTS on create); changed: lastName',
    });
    expect(usersWith(sb, 'erp-1').map((u) => u.lastName)).toEqual(['New']);
    expect(requests('createUser')).toEqual({ 200: 1, 409: 1 });
  });

  it('MAX_USERS_REACHED stops the run: created users stay created, the rest are not sent', async () => {
    const sb = await strategySandbox();
    sb.account().subscriptionInformation.maxAllowedUsers = 2; // the admin counts already
    const input = [user('erp-1', {}, 2), user('erp-2', {}, 3), user('erp-3', {}, 4)];
    const stop = await stopOf(syncUsersChunk(input, UPSERT, sb.ctx));
    expect(stop).toMatchObject({ code: 'MAX_USERS_REACHED', exitCode: 1 });
    expect(stop.message).toMatch(/no user slot left/);
    expect(stop.outcomes.map((o) => [o.outcome, o.code])).toEqual([
      ['created', undefined],
      ['failed', 'MAX_USERS_REACHED'],
      ['failed', 'MAX_USERS_REACHED'],
    ]);
    expect(stop.outcomes[2]?.message).toMatch(/^not sent, the run stopped: .*no user slot left/);
    expect(sb.requests('createUser')).toEqual({ 200: 1, 400: 1 });
  });

  it('a user without companyId in an account of several companies is rejected; one with companyId is created', async () => {
    const sb = await strategySandbox();
    const [company] = sb.account().companies.values();
    sb.account().companies.set(99_999, { id: 99_999, name: 'Second GmbH' });
    const input = [user('erp-1'), user('erp-2', { companyId: 99_999 }, 3)];
    const outcomes = await syncUsersChunk(input, UPSERT, sb.ctx);
    expect(outcomes.map((o) => [o.outcome, o.code])).toEqual([
      ['rejected', 'AMBIGUOUS_COMPANY'],
      ['created', undefined],
    ]);
    expect(outcomes[0]?.message).toContain(`ids ${company?.id}, 99999`);
    expect(usersWith(sb, 'erp-2')[0]?.companyId).toBe(99_999);
  });

  it('rejects a second record of one externalId in the chunk', async () => {
    const sb = await strategySandbox();
    const outcomes = await syncUsersChunk([user('erp-1'), user('erp-1', {}, 3)], UPSERT, sb.ctx);
    expect(outcomes.map((o) => o.code ?? o.outcome)).toEqual(['created', 'DUPLICATE_IN_SOURCE']);
    expect(usersWith(sb, 'erp-1')).toHaveLength(1);
  });
});

describe('ambiguous creates (fault injection): no user created twice', () => {
  it('after a commit-then-reset re-lists instead of resending', async () => {
    const sb = await strategySandbox({ script: [{ op: 'createUser', fault: 'commit-then-reset' }] });
    const outcomes = await syncUsersChunk([user('erp-1'), user('erp-2', {}, 3)], UPSERT, sb.ctx);
    expect(byOutcome(outcomes)).toEqual({ created: 2 });
    expect(outcomes[0]?.message).toMatch(/confirmed by a re-check/);
    // A lost answer is waited out first: the in-flight bound, twice the default 60 s headers timeout.
    expect(sb.clock.sleeps).toEqual([120_000]);
    expect(sb.requests('createUser')).toEqual({ reset: 1, 200: 1 });
    expect(usersWith(sb, 'erp-1')).toHaveLength(1);
  });

  it('after a commit-then-500 finds the user on the 1 s re-check', async () => {
    const sb = await strategySandbox({ script: [{ op: 'createUser', fault: 'commit-then-500' }] });
    const outcomes = await syncUsersChunk([user('erp-1')], UPSERT, sb.ctx);
    expect(outcomes[0]).toMatchObject({ outcome: 'created', serviceId: usersWith(sb, 'erp-1')[0]?.id });
    expect(sb.clock.sleeps).toEqual([1_000]);
    expect(sb.requests('createUser')).toEqual({ 500: 1 });
    expect(usersWith(sb, 'erp-1')).toHaveLength(1);
  });

  it('after a 500 that created nothing, resends once the listing shows it missing', async () => {
    const sb = await strategySandbox({ script: [{ op: 'createUser', fault: '500' }] });
    const outcomes = await syncUsersChunk([user('erp-1')], UPSERT, sb.ctx);
    expect(outcomes[0]?.outcome).toBe('created');
    expect(sb.requests('createUser')).toEqual({ 500: 1, 200: 1 });
    expect(usersWith(sb, 'erp-1')).toHaveLength(1);
  });

  it('a re-check that misses the landed create: the resend conflicts and counts as our create', async () => {
    const sb = await strategySandbox({ script: [{ op: 'createUser', fault: 'commit-then-reset' }] });
    const listUsers = sb.client.listUsers.bind(sb.client);
    let listings = 0;
    // The second listing (the re-check) misses the user, as a listing that lags the write would.
    vi.spyOn(sb.client, 'listUsers').mockImplementation(async (...args) => {
      listings += 1;
      return listings === 2 ? [] : listUsers(...args);
    });
    const outcomes = await syncUsersChunk([user('erp-1')], UPSERT, sb.ctx);
    expect(outcomes[0]).toMatchObject({
      outcome: 'created',
      serviceId: usersWith(sb, 'erp-1')[0]?.id,
      message: 'created (confirmed by a re-check after an ambiguous answer)',
    });
    expect(sb.requests('createUser')).toEqual({ reset: 1, 409: 1 });
    expect(usersWith(sb, 'erp-1')).toHaveLength(1);
  });

  it('a user another run keeps claimed is failed CONCURRENT_CREATE and not sent', async () => {
    const { MemoryCreateClaims, claimKey } = await import('../../../src/sync/create-claims.js');
    const sb = await strategySandbox();
    const claims = new MemoryCreateClaims(() => sb.clock.now());
    await claims.tryClaim([claimKey(ACCOUNT, 'users', 'busy')], 'other-run', 3_600_000);
    const outcomes = await syncUsersChunk([user('busy'), user('free', {}, 3)], UPSERT, { ...sb.ctx, claims });
    expect(outcomes.map((o) => [o.outcome, o.code])).toEqual([
      ['failed', 'CONCURRENT_CREATE'],
      ['created', undefined],
    ]);
    expect(sb.requests('createUser')).toEqual({ 200: 1 });
  });
});

describe('heldUsers (dry run)', () => {
  it('skips existing unchanged users (insert: any existing one); new and changed ones would be sent', async () => {
    const sb = await strategySandbox();
    await syncUsersChunk([user('erp-1')], UPSERT, sb.ctx);
    const records = [user('erp-1'), user('erp-1', { firstName: 'Ulla' }), user('erp-2')];
    const settings = { ...UPSERT, mappedFields: [...MAPPED] };
    const upsert = await heldUsers(records, settings, sb.ctx);
    expect(records.map((r) => upsert(r)?.message)).toEqual([
      'unchanged (dry run: read-only check)',
      undefined,
      undefined,
    ]);
    const insert = await heldUsers(records, { ...settings, mode: 'insert' }, sb.ctx);
    expect(insert(records[1] as UserRecord)?.message).toBe(
      'exists; feed mode insert (dry run: read-only check)',
    );
    expect(sb.requests('createUser')).toEqual({ 200: 1 });
  });
});
