import type { SandboxFixture } from './error-rows/types.js';

/** Shared helpers of the SSO tests: user ids from the seeded state, init, exchange, clock. */
export function ssoHelpers(sb: SandboxFixture) {
  const { sandbox } = sb;
  const usersOf = (accountId: number) => [
    ...(sandbox.runtime.state.accounts.get(accountId)?.users.values() ?? []),
  ];
  const firstUser = (accountId: number) => {
    const user = usersOf(accountId)[0];
    if (!user) throw new Error(`seed account ${accountId} has no user`);
    return user;
  };

  const init = (userId: unknown, opts: { account?: number; token?: string } = {}) =>
    sb.call('POST', '/authentication/sso/init', {
      account: opts.account ?? 1001,
      body: { userId },
      token: opts.token,
    });

  async function mint(userId = firstUser(1001).id, account = 1001): Promise<string> {
    const res = await init(userId, { account });
    if (res.status !== 200) throw new Error(`sso init failed: ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { initToken: string }).initToken;
  }

  async function exchange(body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(`${sandbox.authUrl}/_sandbox/embedded/exchange`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  async function advance(ms: number): Promise<void> {
    const res = await fetch(`${sandbox.authUrl}/_sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceMs: ms }),
    });
    if (res.status !== 200) throw new Error(`clock advance failed: ${res.status}`);
  }

  return { usersOf, firstUser, init, mint, exchange, advance };
}

export const decodeClaims = (token: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
