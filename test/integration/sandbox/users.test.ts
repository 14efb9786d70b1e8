import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withSandbox } from '../../support/sandbox.js';

type Sb = Awaited<ReturnType<typeof withSandbox>>;
type User = { id: number; role: string; email: string };

async function companyOf(sb: Sb, account: number): Promise<number> {
  const res = (await sb.call('GET', '/companies', { account })).body as { data: { id: number }[] };
  return res.data[0]?.id ?? -1;
}

async function adminOf(sb: Sb, account: number): Promise<User> {
  const res = (await sb.call('GET', '/users', { account })).body as { data: User[] };
  return res.data[0] as User;
}

const userBody = (companyId: number, name: string, role = 'USER') => ({
  companyId,
  role,
  externalId: name,
  email: `${name}@example.test`,
  firstName: 'Uma',
  lastName: name,
});

describe('sandbox users', () => {
  let sb: Sb;
  let company: number;
  beforeAll(async () => {
    sb = await withSandbox();
    company = await companyOf(sb, 1001);
  });
  afterAll(() => sb.close());

  it('creates a user in a company of the account; get and list show it', async () => {
    const res = await sb.call('POST', '/users', {
      account: 1001,
      body: userBody(company, 'u1', 'CONTRIBUTOR'),
    });
    expect(res.status).toBe(200);
    const user = (res.body as { data: User }).data;
    expect(res.body).toMatchObject({
      success: true,
      data: { externalId: 'u1', role: 'CONTRIBUTOR', companyId: company, language: 'de-DE', active: true },
    });
    expect((await sb.call('GET', `/users/${user.id}`, { account: 1001 })).body).toMatchObject({ data: user });
    const list = (await sb.call('GET', '/users?pageSize=1&page=1', { account: 1001 })).body;
    expect(list).toMatchObject({ totalElements: 2, totalPages: 2, data: [user] });
    // Not visible through another account.
    const foreign = await sb.call('GET', `/users/${user.id}`, { account: 1002 });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ error: 'USER_NOT_FOUND' });
  });

  it('refuses a companyId of another account with 404 COMPANY_NOT_FOUND', async () => {
    const res = await sb.call('POST', '/users', {
      account: 1001,
      body: userBody(await companyOf(sb, 1002), 'wrong-company'),
    });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: 'COMPANY_NOT_FOUND', causes: [{ field: 'companyId' }] });
  });

  it('keeps externalId unique within the account only, and emails unique everywhere', async () => {
    await sb.call('POST', '/users', { account: 1001, body: userBody(company, 'u2') });
    const sameId = await sb.call('POST', '/users', {
      account: 1001,
      body: { ...userBody(company, 'u2'), email: 'fresh@example.test' },
    });
    expect(sameId.status).toBe(409);
    expect(sameId.body).toMatchObject({ error: 'USER_EXTERNAL_ID_ALREADY_EXISTS' });
    const otherAccount = await sb.call('POST', '/users', {
      account: 1002,
      body: { ...userBody(await companyOf(sb, 1002), 'u2'), email: 'u2-in-1002@example.test' },
    });
    expect(otherAccount.status).toBe(200);
    const sameEmail = await sb.call('POST', '/users', {
      account: 1002,
      body: { ...userBody(await companyOf(sb, 1002), 'u3'), email: 'U2@Example.TEST' },
    });
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body).toMatchObject({
      error: 'USER_EMAIL_ALREADY_EXISTS',
      causes: [{ field: 'email' }],
    });
  });

  it('refuses malformed bodies with 400 INVALID_REQUEST naming the field', async () => {
    for (const [body, field] of [
      [{ ...userBody(company, 'bad'), role: 'OWNER' }, 'role'],
      [{ ...userBody(company, 'bad'), email: 'not-an-email' }, 'email'],
      [{ ...userBody(company, 'bad'), active: false }, 'active'],
    ] as const) {
      const res = await sb.call('POST', '/users', { account: 1001, body });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'INVALID_REQUEST', causes: [{ field }] });
    }
  });

  it('updates firstName and lastName only', async () => {
    const admin = await adminOf(sb, 1002);
    const res = await sb.call('PATCH', `/users/${admin.id}`, { account: 1002, body: { firstName: 'Ana' } });
    expect(res.body).toMatchObject({ data: { id: admin.id, firstName: 'Ana', lastName: 'Admin' } });
    const email = await sb.call('PATCH', `/users/${admin.id}`, { account: 1002, body: { email: 'x@y.z' } });
    expect(email.status).toBe(400);
    expect((await sb.call('PATCH', '/users/42', { account: 1002, body: { firstName: 'N' } })).status).toBe(
      404,
    );
    expect((await sb.call('PATCH', '/users/abc', { account: 1002, body: { firstName: 'N' } })).status).toBe(
      400,
    );
  });
});

describe('sandbox user limits and deletion rules', () => {
  it('enforces maxAllowedUsers plus userAddons with 400 MAX_USERS_REACHED', async () => {
    const sb = await withSandbox();
    try {
      const company = await companyOf(sb, 1001);
      for (let i = 2; i <= 5; i++) {
        expect(
          (await sb.call('POST', '/users', { account: 1001, body: userBody(company, `m${i}`) })).status,
        ).toBe(200);
      }
      const sixth = await sb.call('POST', '/users', { account: 1001, body: userBody(company, 'm6') });
      expect(sixth.status).toBe(400);
      expect(sixth.body).toMatchObject({ error: 'MAX_USERS_REACHED' });
      sb.sandbox.runtime.state.accounts.get(1001)!.subscriptionInformation.userAddons = 1;
      expect((await sb.call('POST', '/users', { account: 1001, body: userBody(company, 'm6') })).status).toBe(
        200,
      );
      expect((await sb.call('POST', '/users', { account: 1001, body: userBody(company, 'm7') })).status).toBe(
        400,
      );
    } finally {
      await sb.close();
    }
  });

  it('protects the only user and the last active admin; deleting frees the email', async () => {
    const sb = await withSandbox();
    try {
      const company = await companyOf(sb, 1001);
      const admin = await adminOf(sb, 1001);
      const only = await sb.call('DELETE', `/users/${admin.id}`, { account: 1001 });
      expect(only.status).toBe(409);
      expect(only.body).toMatchObject({ error: 'USER_CANNOT_BE_DELETED' });

      const plain = (await sb.call('POST', '/users', { account: 1001, body: userBody(company, 'plain') }))
        .body as { data: User };
      const last = await sb.call('DELETE', `/users/${admin.id}`, { account: 1001 });
      expect(last.status).toBe(409);
      expect(last.body).toMatchObject({ error: 'LAST_ADMIN_CANNOT_BE_DELETED' });

      const second = (
        await sb.call('POST', '/users', { account: 1001, body: userBody(company, 'boss', 'ADMIN') })
      ).body as { data: User };
      // An inactive admin cannot run the account, so it does not count as a remaining admin.
      sb.sandbox.runtime.state.accounts.get(1001)!.users.get(second.data.id)!.active = false;
      expect((await sb.call('DELETE', `/users/${admin.id}`, { account: 1001 })).status).toBe(409);
      sb.sandbox.runtime.state.accounts.get(1001)!.users.get(second.data.id)!.active = true;

      const ok = await sb.call('DELETE', `/users/${admin.id}`, { account: 1001 });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ success: true, message: expect.any(String), id: admin.id });
      expect((await sb.call('GET', `/users/${admin.id}`, { account: 1001 })).status).toBe(404);
      expect((await sb.call('DELETE', `/users/${plain.data.id}`, { account: 1001 })).status).toBe(200);

      const reuse = await sb.call('POST', '/users', {
        account: 1002,
        body: { ...userBody(await companyOf(sb, 1002), 'again'), email: admin.email },
      });
      expect(reuse.status).toBe(200);
    } finally {
      await sb.close();
    }
  });
});
