import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withSandbox } from '../../support/sandbox.js';

type Sb = Awaited<ReturnType<typeof withSandbox>>;
type Body = Record<string, unknown> & { data?: unknown };

const newAccount = (externalId: string, email = `${externalId}@example.test`) => ({
  externalId,
  companyName: `${externalId} GmbH`,
  user: { externalId: `${externalId}-admin`, email, firstName: 'Ida', lastName: 'Initial' },
});

describe('sandbox accounts and companies', () => {
  let sb: Sb;
  beforeAll(async () => {
    sb = await withSandbox();
  });
  afterAll(() => sb.close());

  it('creates an account with its default company, base scenario, categories and ADMIN user', async () => {
    const res = await sb.call('POST', '/accounts', { body: newAccount('acme') });
    expect(res.status).toBe(200);
    const body = res.body as { account: { id: number }; user: { id: number }; company: { id: number } };
    expect(body).toMatchObject({
      success: true,
      account: { externalId: 'acme', companyName: 'acme GmbH', status: 'ACTIVE' },
      user: { externalId: 'acme-admin', role: 'ADMIN', active: true, language: 'de-DE' },
      company: { name: 'acme GmbH' },
    });
    expect(body.account).not.toHaveProperty('partnerId');
    expect(body.account).toHaveProperty('subscriptionInformation.maxAllowedUsers', 5);
    const account = body.account.id;
    expect(body.user).toMatchObject({ companyId: body.company.id });

    const users = await sb.call('GET', '/users', { account });
    expect((users.body as Body).data).toEqual([body.user]);
    const companies = await sb.call('GET', '/companies', { account });
    expect((companies.body as Body).data).toEqual([body.company]);
    const scenarios = await sb.call('GET', '/scenarios', { account });
    expect(scenarios.body).toEqual([expect.objectContaining({ isBaseCase: true })]);
    const names = ((await sb.call('GET', '/categories', { account })).body as { name: string }[]).map(
      (c) => c.name,
    );
    expect(names).toEqual(expect.arrayContaining(['Uncategorized income', 'Uncategorized expenses', 'Rent']));
  });

  it('keeps externalId unique per partner, not across partners', async () => {
    await sb.call('POST', '/accounts', { body: newAccount('shared') });
    const again = await sb.call('POST', '/accounts', { body: newAccount('shared', 'other@example.test') });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      error: 'ACCOUNT_EXTERNAL_ID_ALREADY_EXISTS',
      causes: [{ field: 'externalId' }],
    });
    const otherPartner = await sb.token('other-client', 'other-secret');
    const theirs = await sb.call('POST', '/accounts', {
      body: newAccount('shared', 'theirs@example.test'),
      token: otherPartner,
    });
    expect(theirs.status).toBe(200);
  });

  it('refuses an initial user email in use anywhere in the sandbox, case-insensitively, and stores nothing', async () => {
    // admin@not-yours.example is the admin of another partner's account.
    const res = await sb.call('POST', '/accounts', {
      body: newAccount('dup-mail', 'Admin@NOT-YOURS.example'),
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'USER_EMAIL_ALREADY_EXISTS', causes: [{ field: 'user.email' }] });
    const retry = await sb.call('POST', '/accounts', { body: newAccount('dup-mail') });
    expect(retry.status).toBe(200);
  });

  it("lists only the caller partner's accounts, filtered by status and paginated", async () => {
    const all = (await sb.call('GET', '/accounts?pageSize=1000')).body as { data: { externalId: string }[] };
    const ids = all.data.map((a) => a.externalId);
    expect(ids).toEqual(expect.arrayContaining(['demo', 'demo-2', 'acme']));
    expect(ids).not.toContain('not-yours');
    expect(ids.filter((id) => id === 'shared')).toHaveLength(1);

    const page = (await sb.call('GET', '/accounts?page=1&pageSize=1')).body;
    expect(page).toMatchObject({ number: 1, size: 1, totalElements: ids.length, totalPages: ids.length });
    expect((page as { data: unknown[] }).data).toEqual([all.data[1]]);

    expect(((await sb.call('GET', '/accounts?status=IN_TRIAL')).body as Body).data).toEqual([]);
    const active = (await sb.call('GET', '/accounts?status=ACTIVE')).body as { totalElements: number };
    expect(active.totalElements).toBe(ids.length);
    for (const bad of ['status=FROZEN', 'pageSize=0', 'page=-1', 'sort=id']) {
      const res = await sb.call('GET', `/accounts?${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body, bad).toMatchObject({ error: 'INVALID_REQUEST' });
    }
  });

  it('refuses account creation to a read-only client but lets it list', async () => {
    const reader = await sb.token('sandbox-reader', 'sandbox-secret');
    expect((await sb.call('POST', '/accounts', { body: newAccount('ro'), token: reader })).status).toBe(403);
    expect((await sb.call('GET', '/accounts', { token: reader })).status).toBe(200);
  });

  it('gets an account only when the path id matches X-Account-Id', async () => {
    const res = await sb.call('GET', '/accounts/1001', { account: 1001 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      data: { id: 1001, externalId: 'demo', status: 'ACTIVE' },
    });
    const mismatch = await sb.call('GET', '/accounts/1002', { account: 1001 });
    expect(mismatch.status).toBe(404);
    expect(mismatch.body).toMatchObject({ error: 'ACCOUNT_NOT_FOUND' });
    const malformed = await sb.call('GET', '/accounts/demo', { account: 1001 });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ error: 'INVALID_REQUEST', causes: [{ field: 'id' }] });
  });

  it('updates companyName, which also renames the main company', async () => {
    const res = await sb.call('PATCH', '/accounts/1002', {
      account: 1002,
      body: { companyName: 'Renamed AG' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ data: { id: 1002, companyName: 'Renamed AG' } });
    const companies = (await sb.call('GET', '/companies', { account: 1002 })).body as Body;
    expect(companies.data).toEqual([expect.objectContaining({ name: 'Renamed AG' })]);
    for (const body of [{ externalId: 'x' }, { companyName: '' }, { companyName: 7 }]) {
      const bad = await sb.call('PATCH', '/accounts/1002', { account: 1002, body });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error: 'INVALID_REQUEST' });
    }
  });

  it('deletes an account: it is gone, and its externalId and emails are free again', async () => {
    const created = await sb.call('POST', '/accounts', { body: newAccount('short-lived') });
    const id = (created.body as { account: { id: number } }).account.id;
    const res = await sb.call('DELETE', `/accounts/${id}`, { account: id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: expect.any(String), id });
    const after = await sb.call('GET', `/accounts/${id}`, { account: id });
    expect(after.status).toBe(404);
    expect(after.body).toMatchObject({ error: 'ACCOUNT_NOT_FOUND' });
    expect(sb.sandbox.runtime.state.accounts.has(id)).toBe(false);
    expect((await sb.call('POST', '/accounts', { body: newAccount('short-lived') })).status).toBe(200);
  });

  it('lists companies with pagination and gets one, 404 COMPANY_NOT_FOUND otherwise', async () => {
    const list = (await sb.call('GET', '/companies?pageSize=10', { account: 1001 })).body as {
      data: { id: number; name: string }[];
    };
    expect(list).toMatchObject({ success: true, number: 0, size: 10, totalElements: 1, totalPages: 1 });
    const company = list.data[0];
    const one = await sb.call('GET', `/companies/${company?.id}`, { account: 1001 });
    expect(one.body).toEqual({ success: true, message: expect.any(String), data: company });
    // A company of another account is not found through this one.
    const foreign = (await sb.call('GET', '/companies', { account: 1002 })).body as {
      data: { id: number }[];
    };
    const other = await sb.call('GET', `/companies/${foreign.data[0]?.id}`, { account: 1001 });
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ error: 'COMPANY_NOT_FOUND' });
    expect((await sb.call('GET', '/companies/1.5', { account: 1001 })).status).toBe(400);
    expect((await sb.call('GET', '/companies?pageSize=1001', { account: 1001 })).status).toBe(400);
  });
});
