import type { ErrorRow, SandboxFixture } from './types.js';

async function companyOf(sb: SandboxFixture, account = 1001): Promise<number> {
  const res = (await sb.call('GET', '/companies', { account })).body as { data: { id: number }[] };
  return res.data[0]?.id ?? -1;
}

async function adminOf(sb: SandboxFixture, account = 1001): Promise<number> {
  const res = (await sb.call('GET', '/users', { account })).body as { data: { id: number }[] };
  return res.data[0]?.id ?? -1;
}

const user = (companyId: number, name: string, role = 'USER') => ({
  companyId,
  role,
  externalId: name,
  email: `${name}@example.test`,
  firstName: 'Row',
  lastName: name,
});

/** Get, update and delete of one user id, with the given header. */
const userOps = (userId: (sb: SandboxFixture) => Promise<number>, account: number) => [
  {
    op: 'get',
    call: async (sb: SandboxFixture) => sb.call('GET', `/users/${await userId(sb)}`, { account }),
  },
  {
    op: 'update',
    call: async (sb: SandboxFixture) =>
      sb.call('PATCH', `/users/${await userId(sb)}`, { account, body: { firstName: 'X' } }),
  },
  {
    op: 'delete',
    call: async (sb: SandboxFixture) => sb.call('DELETE', `/users/${await userId(sb)}`, { account }),
  },
];

export const rows: ErrorRow[] = [
  {
    spec: { operation: 'Create user', status: 400, error: 'INVALID_REQUEST' },
    how: 'role outside the enum',
    provoke: async (sb) =>
      sb.call('POST', '/users', {
        account: 1001,
        body: { ...user(await companyOf(sb), 'r'), role: 'OWNER' },
      }),
  },
  {
    spec: { operation: 'Create user', status: 400, error: 'MAX_USERS_REACHED' },
    how: 'sixth user with maxAllowedUsers 5',
    provoke: async (sb) => {
      const company = await companyOf(sb);
      for (let i = 2; i <= 5; i++)
        await sb.call('POST', '/users', { account: 1001, body: user(company, `u${i}`) });
      return sb.call('POST', '/users', { account: 1001, body: user(company, 'u6') });
    },
  },
  {
    spec: { operation: 'Create user', status: 404, error: 'ACCOUNT_NOT_FOUND' },
    how: 'X-Account-Id of no account',
    provoke: async (sb) => sb.call('POST', '/users', { account: 999, body: user(await companyOf(sb), 'n') }),
  },
  {
    spec: { operation: 'Create user', status: 404, error: 'COMPANY_NOT_FOUND' },
    how: "companyId of another account's company",
    provoke: async (sb) =>
      sb.call('POST', '/users', { account: 1001, body: user(await companyOf(sb, 1002), 'c') }),
  },
  {
    spec: { operation: 'Create user', status: 409, error: 'USER_EXTERNAL_ID_ALREADY_EXISTS' },
    how: "externalId of the account's seeded admin",
    provoke: async (sb) =>
      sb.call('POST', '/users', { account: 1001, body: { ...user(await companyOf(sb), 'demo-admin') } }),
  },
  {
    spec: { operation: 'Create user', status: 409, error: 'USER_EMAIL_ALREADY_EXISTS' },
    how: "email of another partner's admin",
    provoke: async (sb) =>
      sb.call('POST', '/users', {
        account: 1001,
        body: { ...user(await companyOf(sb), 'e'), email: 'admin@not-yours.example' },
      }),
  },
  {
    spec: { operation: 'List users', status: 400, error: 'INVALID_REQUEST' },
    how: 'page below 0',
    provoke: (sb) => sb.call('GET', '/users?page=-1', { account: 1001 }),
  },
  {
    spec: { operation: 'List users', status: 404, error: 'ACCOUNT_NOT_FOUND' },
    how: 'X-Account-Id of no account',
    provoke: (sb) => sb.call('GET', '/users', { account: 999 }),
  },
  ...userOps((sb) => adminOf(sb), 999).map(
    ({ op, call }): ErrorRow => ({
      spec: { operation: 'Get/Update/Delete user', status: 404, error: 'ACCOUNT_NOT_FOUND' },
      how: `${op} with X-Account-Id of no account`,
      provoke: call,
    }),
  ),
  ...userOps((sb) => adminOf(sb, 1002), 1001).map(
    ({ op, call }): ErrorRow => ({
      spec: { operation: 'Get/Update/Delete user', status: 404, error: 'USER_NOT_FOUND' },
      how: `${op} of a user of another account`,
      provoke: call,
    }),
  ),
  {
    spec: { operation: 'Update user', status: 400, error: 'INVALID_REQUEST' },
    how: 'email is not partner-mutable',
    provoke: async (sb) =>
      sb.call('PATCH', `/users/${await adminOf(sb)}`, { account: 1001, body: { email: 'new@example.test' } }),
  },
  {
    spec: { operation: 'Delete user', status: 409, error: 'USER_CANNOT_BE_DELETED' },
    how: 'the seeded admin, only user of the account',
    provoke: async (sb) => sb.call('DELETE', `/users/${await adminOf(sb)}`, { account: 1001 }),
  },
  {
    spec: { operation: 'Delete user', status: 409, error: 'LAST_ADMIN_CANNOT_BE_DELETED' },
    how: 'the only admin, next to a USER',
    provoke: async (sb) => {
      await sb.call('POST', '/users', { account: 1001, body: user(await companyOf(sb), 'plain') });
      return sb.call('DELETE', `/users/${await adminOf(sb)}`, { account: 1001 });
    },
  },
];
