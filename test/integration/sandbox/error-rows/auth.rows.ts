import { createFaultInjector } from '../../../../src/sandbox/faults.js';
import { DEFAULT_SEED, parseSeed } from '../../../../src/sandbox/seed.js';
import type { ErrorRow, SandboxFixture } from './types.js';

/** Id of the first seeded user of an account, read from the running sandbox's state. */
function userOf(sb: SandboxFixture, accountId: number, externalId?: string): number {
  const users = [...(sb.sandbox.runtime.state.accounts.get(accountId)?.users.values() ?? [])];
  const user = externalId ? users.find((u) => u.externalId === externalId) : users[0];
  if (!user) throw new Error(`no seeded user ${externalId ?? ''} in account ${accountId}`);
  return user.id;
}

const ssoInit = (sb: SandboxFixture, body: unknown, opts: { account?: number; token?: string } = {}) =>
  sb.call('POST', '/authentication/sso/init', { account: opts.account, body, token: opts.token });

const noSsoSeed = parseSeed(
  {
    ...DEFAULT_SEED,
    partners: DEFAULT_SEED.partners.map((p) => (p.id === 'demo-partner' ? { ...p, ssoEnabled: false } : p)),
  },
  'auth rows: SSO disabled',
);

const inactiveUserSeed = parseSeed(
  {
    ...DEFAULT_SEED,
    accounts: DEFAULT_SEED.accounts.map((a) =>
      a.id !== 1001
        ? a
        : {
            ...a,
            users: [
              { externalId: 'admin', email: 'admin@demo.example', firstName: 'Ada', lastName: 'Admin' },
              {
                externalId: 'blocked',
                email: 'blocked@demo.example',
                firstName: 'Bo',
                lastName: 'Blocked',
                role: 'USER' as const,
                active: false,
              },
            ],
          },
    ),
  },
  'auth rows: inactive user',
);

/** The reader client holds api:read only. */
const readerToken = (sb: SandboxFixture) => sb.token('sandbox-reader', 'sandbox-secret');

export const rows: ErrorRow[] = [
  {
    spec: { operation: 'SSO init', status: 400, error: 'INVALID_REQUEST' },
    how: 'userId sent as a string',
    provoke: (sb) => ssoInit(sb, { userId: 'abc' }, { account: 1001 }),
  },
  {
    spec: { operation: 'SSO init', status: 400, error: 'INVALID_REQUEST' },
    how: 'body without userId',
    provoke: (sb) => ssoInit(sb, {}, { account: 1001 }),
  },
  {
    spec: { operation: 'SSO init', status: 400, error: 'MISSING_ACCOUNT_HEADER' },
    how: 'no X-Account-Id',
    provoke: async (sb) => ssoInit(sb, { userId: userOf(sb, 1001) }),
  },
  {
    spec: { operation: 'SSO init', status: 401, error: 'INVALID_CREDENTIALS' },
    how: 'unknown bearer token',
    provoke: async (sb) => ssoInit(sb, { userId: userOf(sb, 1001) }, { account: 1001, token: 'not-a-token' }),
  },
  {
    spec: { operation: 'SSO init', status: 403, error: 'SSO_NOT_ENABLED' },
    how: 'partner seeded with ssoEnabled: false',
    options: { seed: noSsoSeed },
    provoke: async (sb) => ssoInit(sb, { userId: userOf(sb, 1001) }, { account: 1001 }),
  },
  {
    spec: { operation: 'SSO init', status: 404, error: 'USER_NOT_FOUND' },
    how: 'user of another account of the same partner',
    provoke: async (sb) => ssoInit(sb, { userId: userOf(sb, 1002) }, { account: 1001 }),
  },
  {
    spec: { operation: 'SSO init', status: 404, error: 'USER_NOT_FOUND' },
    how: 'account of another partner (404, not 403, so existence cannot be probed)',
    provoke: async (sb) => ssoInit(sb, { userId: userOf(sb, 1003) }, { account: 1003 }),
  },
  {
    spec: { operation: 'SSO init', status: 409, error: 'USER_INACTIVE' },
    how: 'user seeded with active: false',
    options: { seed: inactiveUserSeed },
    provoke: async (sb) => ssoInit(sb, { userId: userOf(sb, 1001, 'blocked') }, { account: 1001 }),
  },
  {
    spec: { operation: 'SSO init', status: 429, error: 'RATE_LIMITED' },
    how: 'init tokens in a quick loop until the partner budget (default 10 per 10 s) runs out, with Retry-After',
    provoke: async (sb) => {
      const token = await sb.token();
      const userId = userOf(sb, 1001);
      // A loop, not exactly 11 calls: the bucket refills 1/s in real time and a slow machine may take that long.
      for (let i = 0; i < 50; i++) {
        const res = await ssoInit(sb, { userId }, { account: 1001, token });
        if (res.status === 200) continue;
        if (i < 10) throw new Error(`only ${i} init tokens before ${res.status}; the default budget is 10`);
        const retryAfter = res.headers.get('retry-after');
        if (!retryAfter || !/^[1-9]\d*$/.test(retryAfter)) {
          throw new Error(`429 without a usable Retry-After header: ${retryAfter}`);
        }
        return res;
      }
      throw new Error('no 429 after 50 init tokens');
    },
  },
  {
    spec: { operation: 'SSO init', status: 500, error: 'INTERNAL_ERROR' },
    how: 'fault injector: 500 rate 1.0 on ssoInit',
    options: { faults: createFaultInjector({ fail500: { rate: 1, ops: ['ssoInit'] } }) },
    provoke: async (sb) => ssoInit(sb, { userId: userOf(sb, 1001) }, { account: 1001 }),
  },
  {
    spec: {
      operation: 'Any bank account or user or account operation',
      status: 401,
      error: 'INVALID_CREDENTIALS',
    },
    how: 'list bank accounts with an unknown token',
    provoke: (sb) => sb.call('GET', '/bank-accounts', { account: 1001, token: 'expired-or-bogus' }),
  },
  {
    spec: {
      operation: 'Any bank account or user or account operation',
      status: 401,
      error: 'INVALID_CREDENTIALS',
    },
    how: 'create user without a usable token (malformed Authorization)',
    provoke: (sb) =>
      sb.call('POST', '/users', {
        account: 1001,
        token: '',
        body: {
          companyId: 1,
          role: 'USER',
          externalId: 'x',
          email: 'x@example.com',
          firstName: 'X',
          lastName: 'Y',
        },
      }),
  },
  {
    spec: {
      operation: 'Any bank account or user or account operation',
      status: 401,
      error: 'INVALID_CREDENTIALS',
    },
    how: 'list accounts with an unknown token',
    provoke: (sb) => sb.call('GET', '/accounts', { token: 'nope' }),
  },
  {
    spec: { operation: 'Any of the above', status: 403, error: 'INSUFFICIENT_SCOPE' },
    how: 'reader client (api:read) creates a bank account',
    provoke: async (sb) =>
      sb.call('POST', '/bank-accounts', {
        account: 1001,
        token: await readerToken(sb),
        body: { accountCurrency: 'EUR', accountName: 'New', bankName: 'Bank', accountType: 'CHECKING' },
      }),
  },
  {
    spec: { operation: 'Any of the above', status: 403, error: 'INSUFFICIENT_SCOPE' },
    how: 'reader client (api:read) deletes a user',
    provoke: async (sb) =>
      sb.call('DELETE', `/users/${userOf(sb, 1001)}`, { account: 1001, token: await readerToken(sb) }),
  },
  {
    spec: { operation: 'Any of the above', status: 403, error: 'INSUFFICIENT_SCOPE' },
    how: 'reader client (api:read) creates an account',
    provoke: async (sb) =>
      sb.call('POST', '/accounts', {
        token: await readerToken(sb),
        body: {
          externalId: 'new',
          companyName: 'New GmbH',
          user: { externalId: 'u', email: 'u@new.example', firstName: 'U', lastName: 'N' },
        },
      }),
  },
  {
    spec: { operation: 'Any of the above', status: 500, error: 'INTERNAL_ERROR' },
    how: 'fault injector: 500 rate 1.0 on list bank accounts',
    options: { faults: createFaultInjector({ fail500: { rate: 1, ops: ['listBankAccounts'] } }) },
    provoke: (sb) => sb.call('GET', '/bank-accounts', { account: 1001 }),
  },
  {
    spec: { operation: 'Any of the above', status: 500, error: 'INTERNAL_ERROR' },
    how: 'fault injector: 500 rate 1.0 on create user',
    options: { faults: createFaultInjector({ fail500: { rate: 1, ops: ['createUser'] } }) },
    provoke: (sb) =>
      sb.call('POST', '/users', {
        account: 1001,
        body: {
          companyId: 1,
          role: 'USER',
          externalId: 'x',
          email: 'x@example.com',
          firstName: 'X',
          lastName: 'Y',
        },
      }),
  },
];
