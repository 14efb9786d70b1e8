import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BankAccountCreate } from '../../../src/contract/index.js';
import { resolveBankAccount } from '../../../src/kinds/bank-accounts/lookup.js';
import { syncBankAccountsChunk } from '../../../src/kinds/bank-accounts/strategy.js';
import type { RecordOf } from '../../../src/sources/record-of.js';
import { RunStopError } from '../../../src/sync/stop.js';
import type { UpsertOptions } from '../../../src/sync/writes/field-diff.js';
import { ACCOUNT, byOutcome, closeStrategySandboxes, eachOnce, strategySandbox } from './strategy-fixture.js';

afterEach(closeStrategySandboxes);

type BankRecord = RecordOf<'bank-accounts'>;

/** As the mapper builds it: accountType and accountCurrency filled with their implicit defaults. */
function bank(externalId: string, over: Partial<BankAccountCreate> = {}, line = 2): BankRecord {
  const payload: BankAccountCreate = {
    externalId,
    accountName: `Account ${externalId}`,
    bankName: 'Volksbank',
    accountType: 'CHECKING',
    accountCurrency: 'EUR',
    ...over,
  };
  const amount = payload.balanceReference === undefined ? undefined : String(payload.balanceReference);
  return { file: 'accounts.jsonl', line, externalId, derivedId: false, amount, payload };
}

const MAPPED = ['externalId', 'accountName', 'bankName', 'iban', 'balanceReference', 'balanceDate'];
const UPSERT: UpsertOptions = { mode: 'upsert', emptyCellClears: false, mappedFields: MAPPED };

const isStop = (code: string, pattern?: RegExp) => (e: unknown) =>
  e instanceof RunStopError && e.code === code && (pattern === undefined || pattern.test(e.message));

describe('syncBankAccountsChunk against the sandbox', () => {
  it('creates missing PARTNER accounts, PATCHes only what changed (balance pair together), skips the rest', async () => {
    const { ctx, client, account, requests } = await strategySandbox();
    const input = [
      bank('erp-1', { balanceReference: 100, balanceDate: '2026-01-01' }, 2),
      bank('erp-2', {}, 3),
      bank('erp-3', { iban: 'DE89370400440532013000' }, 4),
    ];
    const first = await syncBankAccountsChunk(input, UPSERT, ctx);
    expect(eachOnce(first, input)).toBe(true);
    expect(byOutcome(first)).toEqual({ created: 3 });
    for (const o of first) {
      expect(account().bankAccounts.get(o.serviceId ?? -1)).toMatchObject({
        externalId: o.externalId,
        provider: 'PARTNER',
      });
    }
    expect(requests('listBankAccounts')).toEqual({ 200: 1 });

    const spy = vi.spyOn(client, 'updateBankAccount');
    const next = [
      bank('erp-1', { balanceReference: 250.75, balanceDate: '2026-01-01' }, 2),
      bank('erp-2', { accountName: 'Renamed' }, 3),
      input[2] as BankRecord,
    ];
    const second = await syncBankAccountsChunk(next, UPSERT, ctx);
    expect(second.map((o) => [o.outcome, o.message])).toEqual([
      ['updated', 'changed: balanceReference, balanceDate'],
      ['updated', 'changed: accountName'],
      ['skipped', 'unchanged'],
    ]);
    expect(spy.mock.calls.map((c) => c[2])).toEqual([
      { balanceReference: 250.75, balanceDate: '2026-01-01' },
      { accountName: 'Renamed' },
    ]);
    expect(account().bankAccounts.get(second[0]?.serviceId ?? -1)).toMatchObject({
      balanceReference: 250.75,
    });
    expect(account().bankAccounts.get(second[1]?.serviceId ?? -1)).toMatchObject({ accountName: 'Renamed' });
    expect(byOutcome(await syncBankAccountsChunk(next, UPSERT, ctx))).toEqual({ skipped: 3 });
  });

  it('rejects an account of another provider with advice and goes on with the others', async () => {
    const { ctx, account } = await strategySandbox();
    const input = [bank('online', { accountName: 'Taken over?' }), bank('erp-9', {}, 3)];
    const outcomes = await syncBankAccountsChunk(input, UPSERT, ctx);
    expect(outcomes.map((o) => [o.outcome, o.code])).toEqual([
      ['rejected', 'BANK_ACCOUNT_NOT_MODIFIABLE'],
      ['created', undefined],
    ]);
    expect(outcomes[0]?.message).toMatch(/provider ONLINE.*PARTNER/);
    const online = [...account().bankAccounts.values()].find((b) => b.externalId === 'online');
    expect(online?.accountName).toBe('Online account');
  });

  it('leaves unmapped create-time defaults alone on update, and updates them when the feed maps them', async () => {
    const { ctx, account } = await strategySandbox();
    const main = [...account().bankAccounts.values()].find((b) => b.externalId === 'main');
    if (!main) throw new Error('seed has no main account');
    main.accountType = 'SAVINGS';
    const record = bank('main', {
      accountName: 'Main account',
      bankName: 'Sandbox Bank',
      iban: main.iban ?? '',
    });
    const unmapped = await syncBankAccountsChunk([record], UPSERT, ctx);
    expect(unmapped[0]).toMatchObject({ outcome: 'skipped', message: 'unchanged' });
    expect(main.accountType).toBe('SAVINGS');
    const mapped = await syncBankAccountsChunk(
      [record],
      { ...UPSERT, mappedFields: [...MAPPED, 'accountType'] },
      ctx,
    );
    expect(mapped[0]).toMatchObject({ outcome: 'updated', message: 'changed: accountType' });
    expect(main.accountType).toBe('CHECKING');
  });

  it('mode insert skips existing accounts; mode update rejects missing ones and creates nothing', async () => {
    const { ctx, requests } = await strategySandbox();
    const insert = await syncBankAccountsChunk(
      [bank('main', { accountName: 'X' })],
      { ...UPSERT, mode: 'insert' },
      ctx,
    );
    expect(insert[0]).toMatchObject({ outcome: 'skipped', message: 'exists; feed mode insert' });
    const update = await syncBankAccountsChunk([bank('erp-new')], { ...UPSERT, mode: 'update' }, ctx);
    expect(update[0]).toMatchObject({ outcome: 'rejected', code: 'NOT_FOUND_FOR_UPDATE' });
    expect(requests('createBankAccount')).toEqual({});
    expect(requests('updateBankAccount')).toEqual({});
  });

  it('after a commit-then-reset re-lists instead of resending: one account per externalId', async () => {
    const { ctx, clock, account, requests } = await strategySandbox({
      script: [{ op: 'createBankAccount', fault: 'commit-then-reset' }],
    });
    const outcomes = await syncBankAccountsChunk([bank('erp-1'), bank('erp-2', {}, 3)], UPSERT, ctx);
    expect(byOutcome(outcomes)).toEqual({ created: 2 });
    expect(outcomes[0]?.message).toMatch(/confirmed by a re-check/);
    // A lost answer is waited out first: the in-flight bound, twice the default 60 s headers timeout.
    expect(clock.sleeps).toEqual([120_000]);
    expect(requests('createBankAccount')).toEqual({ reset: 1, 200: 1 });
    expect([...account().bankAccounts.values()].filter((b) => b.externalId === 'erp-1')).toHaveLength(1);
  });

  it('after a 500 that created nothing, resends once the listing shows it missing', async () => {
    const { ctx, account, requests } = await strategySandbox({
      script: [{ op: 'createBankAccount', fault: '500' }],
    });
    const outcomes = await syncBankAccountsChunk([bank('erp-1')], UPSERT, ctx);
    expect(outcomes[0]?.outcome).toBe('created');
    expect(requests('createBankAccount')).toEqual({ 500: 1, 200: 1 });
    expect([...account().bankAccounts.values()].filter((b) => b.externalId === 'erp-1')).toHaveLength(1);
  });

  it('rejects a record whose externalId several accounts carry, and a duplicate in the chunk', async () => {
    const { ctx, client, account } = await strategySandbox();
    const twice = bank('twice').payload;
    await client.createBankAccount(ACCOUNT, twice);
    await client.createBankAccount(ACCOUNT, twice);
    const input = [bank('twice'), bank('erp-1', {}, 3), bank('erp-1', { accountName: 'again' }, 4)];
    const outcomes = await syncBankAccountsChunk(input, UPSERT, ctx);
    expect(outcomes.map((o) => o.code ?? o.outcome)).toEqual([
      'AMBIGUOUS_TARGET',
      'created',
      'DUPLICATE_IN_SOURCE',
    ]);
    const ids = [...account().bankAccounts.values()].filter((b) => b.externalId === 'twice').map((b) => b.id);
    expect(outcomes[0]?.message).toContain(ids.join(', '));
    expect([...account().bankAccounts.values()].filter((b) => b.externalId === 'erp-1')).toHaveLength(1);
  });

  it('stops the run when the subscription has no bank-account slot left', async () => {
    const { ctx, account } = await strategySandbox();
    account().subscriptionInformation.maxAllowedBankAccounts = 2; // 'main' counts already
    const input = [bank('erp-1'), bank('erp-2', {}, 3)];
    await expect(syncBankAccountsChunk(input, UPSERT, ctx)).rejects.toSatisfy(
      isStop('MAX_BANK_ACCOUNTS_REACHED', /no bank-account slot left/),
    );
  });
});

describe('resolveBankAccount', () => {
  const target = {
    externalId: 'erp-main',
    accountName: 'ERP main',
    bankName: 'Volksbank',
    accountCurrency: 'EUR' as const,
    accountType: 'CHECKING' as const,
    iban: 'DE89370400440532013000',
  };

  it('creates a PARTNER account with the target fields, then finds it', async () => {
    const { ctx, account, requests } = await strategySandbox();
    const id = await resolveBankAccount(target, ctx);
    expect(account().bankAccounts.get(id)).toMatchObject({ ...target, provider: 'PARTNER' });
    expect(await resolveBankAccount(target, ctx)).toBe(id);
    expect(requests('createBankAccount')).toEqual({ 200: 1 });
  });

  it('re-lists after an ambiguous create instead of creating a second account', async () => {
    const { ctx, account } = await strategySandbox({
      script: [{ op: 'createBankAccount', fault: 'commit-then-500' }],
    });
    const id = await resolveBankAccount(target, ctx);
    const matching = [...account().bankAccounts.values()].filter((b) => b.externalId === 'erp-main');
    expect(matching.map((b) => b.id)).toEqual([id]);
  });

  it('stops the run for an account of another provider, several matches, or no slot left', async () => {
    const { ctx, client, account } = await strategySandbox();
    await expect(resolveBankAccount({ ...target, externalId: 'online' }, ctx)).rejects.toSatisfy(
      isStop('BANK_ACCOUNT_NOT_MODIFIABLE', /PARTNER/),
    );
    await client.createBankAccount(ACCOUNT, { ...target, externalId: 'twice' });
    await client.createBankAccount(ACCOUNT, { ...target, externalId: 'twice' });
    await expect(resolveBankAccount({ ...target, externalId: 'twice' }, ctx)).rejects.toSatisfy(
      isStop('AMBIGUOUS_TARGET'),
    );
    account().subscriptionInformation.maxAllowedBankAccounts = 3;
    await expect(resolveBankAccount(target, ctx)).rejects.toSatisfy(isStop('MAX_BANK_ACCOUNTS_REACHED'));
  });
});

describe('create claims (issue 18 case 2: creates of one externalId serialised across runs)', () => {
  it('leaves an account another run keeps claimed failed CONCURRENT_CREATE after the wait, and creates the rest', async () => {
    const { MemoryCreateClaims, claimKey, CLAIM_WAIT_MS } = await import(
      '../../../src/sync/create-claims.js'
    );
    const { ctx, clock, requests } = await strategySandbox();
    const claims = new MemoryCreateClaims(() => clock.now());
    await claims.tryClaim([claimKey(ACCOUNT, 'bank-accounts', 'busy')], 'other-run', 3_600_000);
    const outcomes = await syncBankAccountsChunk([bank('busy'), bank('free', {}, 3)], UPSERT, {
      ...ctx,
      claims,
    });
    expect(outcomes[0]).toMatchObject({ outcome: 'failed', code: 'CONCURRENT_CREATE', externalId: 'busy' });
    expect(outcomes[1]).toMatchObject({ outcome: 'created', externalId: 'free' });
    expect(requests('createBankAccount')).toEqual({ 200: 1 });
    expect(clock.sleeps.reduce((sum, ms) => sum + ms, 0)).toBeGreaterThanOrEqual(CLAIM_WAIT_MS);
    // This chunk's claims are released: another run may create 'free' now (it will find it).
    expect(await claims.tryClaim([claimKey(ACCOUNT, 'bank-accounts', 'free')], 'next', 1_000)).toHaveProperty(
      'size',
      1,
    );
  });
});
