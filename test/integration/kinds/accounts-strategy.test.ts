import { afterEach, describe, expect, it, vi } from 'vitest';
import { PartnerClient } from '../../../src/client/index.js';
import { PARTNER_SCOPE } from '../../../src/config/partner-scope.js';
import { heldAccounts } from '../../../src/kinds/accounts/held.js';
import {
  type AccountPayload,
  type AccountRecord,
  createBodyOf,
} from '../../../src/kinds/accounts/payload.js';
import { syncAccountsChunk } from '../../../src/kinds/accounts/strategy.js';
import type { FaultConfigInput } from '../../../src/sandbox/faults-config.js';
import { ChunkStopError } from '../../../src/sync/stop.js';
import type { UpsertOptions } from '../../../src/sync/writes/field-diff.js';
import { byOutcome, closeStrategySandboxes, eachOnce, strategySandbox } from './strategy-fixture.js';

afterEach(closeStrategySandboxes);

function tenant(externalId: string, over: Partial<AccountPayload> = {}, line = 2): AccountRecord {
  const payload: AccountPayload = {
    externalId,
    companyName: `${externalId} GmbH`,
    adminExternalId: `${externalId}-admin`,
    adminEmail: `admin@${externalId}.test`,
    adminFirstName: 'Ada',
    adminLastName: 'Admin',
    ...over,
  };
  return { file: 'tenants.csv', line, externalId, derivedId: false, payload };
}

const UPSERT: UpsertOptions = {
  mode: 'upsert',
  emptyCellClears: false,
  mappedFields: [
    'externalId',
    'companyName',
    'adminExternalId',
    'adminEmail',
    'adminFirstName',
    'adminLastName',
  ],
};

/** The strategy sandbox with a partner-scope chunk context (no X-Account-Id). */
async function partnerSandbox(faults: FaultConfigInput = {}) {
  const sb = await strategySandbox(faults);
  const accounts = (externalId: string) =>
    [...sb.sandbox.runtime.state.accounts.values()].filter((a) => a.externalId === externalId);
  return { ...sb, ctx: { ...sb.ctx, accountId: PARTNER_SCOPE }, accounts };
}

describe('syncAccountsChunk against the sandbox', () => {
  it('creates missing accounts with their admin, renames a changed company, skips the rest; a rerun skips all', async () => {
    const sb = await partnerSandbox();
    const input = [tenant('t-1', {}, 2), tenant('t-2', { adminLanguage: 'en-US' }, 3)];
    const first = await syncAccountsChunk(input, UPSERT, sb.ctx);
    expect(eachOnce(first, input)).toBe(true);
    expect(byOutcome(first)).toEqual({ created: 2 });
    const [created] = sb.accounts('t-2');
    expect(created?.id).toBe(first[1]?.serviceId);
    expect([...(created?.users.values() ?? [])]).toMatchObject([
      { externalId: 't-2-admin', email: 'admin@t-2.test', role: 'ADMIN', language: 'en-US' },
    ]);
    expect([...(created?.companies.values() ?? [])].map((c) => c.name)).toEqual(['t-2 GmbH']);

    const spy = vi.spyOn(sb.client, 'updateAccount');
    // The admin fields are for the create: a changed admin name says nothing about the account.
    const next = [tenant('t-1', { companyName: 'T-1 AG' }, 2), tenant('t-2', { adminLastName: 'Other' }, 3)];
    const second = await syncAccountsChunk(next, UPSERT, sb.ctx);
    expect(second.map((o) => [o.outcome, o.message])).toEqual([
      ['updated', 'changed: companyName'],
      ['skipped', 'unchanged'],
    ]);
    expect(spy.mock.calls.map((c) => c[1])).toEqual([{ companyName: 'T-1 AG' }]);
    const [renamed] = sb.accounts('t-1');
    expect(renamed?.companyName).toBe('T-1 AG');
    expect([...(renamed?.companies.values() ?? [])].map((c) => c.name)).toEqual(['T-1 AG']);
    expect(byOutcome(await syncAccountsChunk(next, UPSERT, sb.ctx))).toEqual({ skipped: 2 });
    expect(sb.requests('createAccount')).toEqual({ 200: 2 });
    expect(sb.requests('listAccounts')).toEqual({ 200: 3 });
  });

  it('mode insert skips an existing account; mode update rejects a missing one and creates nothing', async () => {
    const sb = await partnerSandbox();
    const insert = await syncAccountsChunk(
      [tenant('demo', { companyName: 'Renamed' })],
      { ...UPSERT, mode: 'insert' },
      sb.ctx,
    );
    expect(insert[0]).toMatchObject({
      outcome: 'skipped',
      serviceId: 1001,
      message: 'exists; feed mode insert',
    });
    const update = await syncAccountsChunk([tenant('t-new')], { ...UPSERT, mode: 'update' }, sb.ctx);
    expect(update[0]).toMatchObject({ outcome: 'rejected', code: 'NOT_FOUND_FOR_UPDATE' });
    expect(sb.requests('createAccount')).toEqual({});
    expect(sb.requests('updateAccount')).toEqual({});
  });

  it("USER_EMAIL_ALREADY_EXISTS (the admin's email is in use) rejects the record with the reason; the chunk goes on", async () => {
    const sb = await partnerSandbox();
    const input = [tenant('t-1', { adminEmail: 'admin@demo.example' }), tenant('t-2', {}, 3)];
    const outcomes = await syncAccountsChunk(input, UPSERT, sb.ctx);
    expect(outcomes.map((o) => [o.outcome, o.code])).toEqual([
      ['rejected', 'USER_EMAIL_ALREADY_EXISTS'],
      ['created', undefined],
    ]);
    expect(outcomes[0]?.message).toMatch(/already in use.*give the account's admin another email/);
    expect(sb.accounts('t-1')).toHaveLength(0);
  });

  it('ACCOUNT_EXTERNAL_ID_ALREADY_EXISTS on create: found, then updated', async () => {
    const sb = await partnerSandbox();
    // Someone else creates the account after this chunk's listing.
    vi.spyOn(sb.client, 'listAccounts').mockImplementationOnce(async () => {
      await sb.client.createAccount(createBodyOf(tenant('t-1', { companyName: 'Old name' }).payload));
      return [];
    });
    const outcomes = await syncAccountsChunk([tenant('t-1', { companyName: 'New name' })], UPSERT, sb.ctx);
    expect(outcomes[0]).toMatchObject({
      outcome: 'updated',
      serviceId: sb.accounts('t-1')[0]?.id,
      message:
        'the service already holds externalId "t-1" (ACCOUNT_EXTERNAL_ID_ALREADY_EXISTS on create); changed: companyName',
    });
    expect(sb.accounts('t-1').map((a) => a.companyName)).toEqual(['New name']);
    expect(sb.requests('createAccount')).toEqual({ 200: 1, 409: 1 });
  });

  it('INSUFFICIENT_SCOPE (a read-only client) stops the run before anything is created', async () => {
    const sb = await partnerSandbox();
    const reader = new PartnerClient(
      {
        baseUrl: sb.sandbox.url,
        authUrl: sb.sandbox.authUrl,
        clientId: 'sandbox-reader',
        clientSecret: 'sandbox-secret',
      },
      { clock: sb.clock },
    );
    try {
      const stopped = await syncAccountsChunk([tenant('t-1'), tenant('t-2', {}, 3)], UPSERT, {
        ...sb.ctx,
        client: reader,
      }).catch((error: unknown) => error);
      expect(stopped).toBeInstanceOf(ChunkStopError);
      expect(stopped).toMatchObject({ code: 'INSUFFICIENT_SCOPE', exitCode: 3 });
      expect((stopped as ChunkStopError).outcomes.map((o) => [o.outcome, o.code])).toEqual([
        ['failed', 'INSUFFICIENT_SCOPE'],
        ['failed', 'INSUFFICIENT_SCOPE'],
      ]);
      expect(sb.accounts('t-1')).toHaveLength(0);
    } finally {
      await reader.close();
    }
  });

  it('rejects a second record of one externalId in the chunk', async () => {
    const sb = await partnerSandbox();
    const outcomes = await syncAccountsChunk([tenant('t-1'), tenant('t-1', {}, 3)], UPSERT, sb.ctx);
    expect(outcomes.map((o) => o.code ?? o.outcome)).toEqual(['created', 'DUPLICATE_IN_SOURCE']);
    expect(sb.accounts('t-1')).toHaveLength(1);
  });
});

describe('ambiguous creates (fault injection): no account created twice', () => {
  it('after a commit-then-reset re-lists instead of resending', async () => {
    const sb = await partnerSandbox({ script: [{ op: 'createAccount', fault: 'commit-then-reset' }] });
    const outcomes = await syncAccountsChunk([tenant('t-1'), tenant('t-2', {}, 3)], UPSERT, sb.ctx);
    expect(byOutcome(outcomes)).toEqual({ created: 2 });
    expect(outcomes[0]).toMatchObject({
      serviceId: sb.accounts('t-1')[0]?.id,
      message: 'created (confirmed by a re-check after an ambiguous answer)',
    });
    expect(sb.clock.sleeps).toEqual([120_000]);
    expect(sb.requests('createAccount')).toEqual({ reset: 1, 200: 1 });
    expect(sb.accounts('t-1')).toHaveLength(1);
  });

  it('after a commit-then-500 finds the account on the 1 s re-check', async () => {
    const sb = await partnerSandbox({ script: [{ op: 'createAccount', fault: 'commit-then-500' }] });
    const outcomes = await syncAccountsChunk([tenant('t-1')], UPSERT, sb.ctx);
    expect(outcomes[0]).toMatchObject({ outcome: 'created', serviceId: sb.accounts('t-1')[0]?.id });
    expect(sb.clock.sleeps).toEqual([1_000]);
    expect(sb.requests('createAccount')).toEqual({ 500: 1 });
  });

  it('after a 500 that created nothing, resends once the listing shows it missing', async () => {
    const sb = await partnerSandbox({ script: [{ op: 'createAccount', fault: '500' }] });
    const outcomes = await syncAccountsChunk([tenant('t-1')], UPSERT, sb.ctx);
    expect(outcomes[0]?.outcome).toBe('created');
    expect(sb.requests('createAccount')).toEqual({ 500: 1, 200: 1 });
    expect(sb.accounts('t-1')).toHaveLength(1);
  });

  it('a re-check that misses the landed create: the resend conflicts and counts as our create', async () => {
    const sb = await partnerSandbox({ script: [{ op: 'createAccount', fault: 'commit-then-reset' }] });
    const listAccounts = sb.client.listAccounts.bind(sb.client);
    let listings = 0;
    vi.spyOn(sb.client, 'listAccounts').mockImplementation(async (...args) => {
      listings += 1;
      return listings === 2 ? [] : listAccounts(...args);
    });
    const outcomes = await syncAccountsChunk([tenant('t-1')], UPSERT, sb.ctx);
    expect(outcomes[0]).toMatchObject({
      outcome: 'created',
      serviceId: sb.accounts('t-1')[0]?.id,
      message: 'created (confirmed by a re-check after an ambiguous answer)',
    });
    expect(sb.requests('createAccount')).toEqual({ reset: 1, 409: 1 });
    expect(sb.accounts('t-1')).toHaveLength(1);
  });

  it('a 429 on the create waits as Retry-After says and creates once', async () => {
    const sb = await partnerSandbox({
      script: [{ op: 'createAccount', fault: '429', retryAfterSeconds: 3 }],
    });
    const outcomes = await syncAccountsChunk([tenant('t-1')], UPSERT, sb.ctx);
    expect(outcomes[0]?.outcome).toBe('created');
    expect(sb.clock.sleeps).toEqual([3_000]);
    expect(sb.requests('createAccount')).toEqual({ 429: 1, 200: 1 });
    expect(sb.accounts('t-1')).toHaveLength(1);
  });
});

describe('heldAccounts (dry run)', () => {
  it('skips existing unchanged accounts (insert: any existing one); new and renamed ones would be sent', async () => {
    const sb = await partnerSandbox();
    await syncAccountsChunk([tenant('t-1')], UPSERT, sb.ctx);
    const records = [tenant('t-1'), tenant('t-1', { companyName: 'Renamed' }), tenant('t-2')];
    const settings = { ...UPSERT, mappedFields: [...UPSERT.mappedFields] };
    const upsert = await heldAccounts(records, settings, sb.ctx);
    expect(records.map((r) => upsert(r)?.message)).toEqual([
      'unchanged (dry run: read-only check)',
      undefined,
      undefined,
    ]);
    const insert = await heldAccounts(records, { ...settings, mode: 'insert' }, sb.ctx);
    expect(insert(records[1] as AccountRecord)?.message).toBe(
      'exists; feed mode insert (dry run: read-only check)',
    );
    expect(sb.requests('createAccount')).toEqual({ 200: 1 });
  });
});
