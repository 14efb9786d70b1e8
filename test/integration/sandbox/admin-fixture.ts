import type { SandboxFixture } from './error-rows/types.js';

/** Raw calls to the sandbox's /_sandbox admin endpoints and small helpers over the default seed. */
export function adminHelpers(sb: SandboxFixture) {
  const base = `${sb.sandbox.authUrl}/_sandbox`;

  async function admin(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: unknown }> {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  /** Id of a bank account of the default seed's account 1001 ('main' is PARTNER, 'online' is ONLINE). */
  function bankAccountId(externalId: 'main' | 'online', accountId = 1001): number {
    const account = sb.sandbox.runtime.state.accounts.get(accountId);
    const bank = [...(account?.bankAccounts.values() ?? [])].find((b) => b.externalId === externalId);
    if (!bank) throw new Error(`no bank account ${externalId} in ${accountId}`);
    return bank.id;
  }

  const transactions = (n: number, prefix: string) =>
    Array.from({ length: n }, (_, i) => ({
      externalId: `${prefix}-${i}`,
      bookingDate: '2026-01-15',
      amount: -10 - i,
      purpose: `payment ${i}`,
    }));

  /** A bulk create on 'main' with its own token; never throws on a dropped connection, reports it. */
  async function bulk(
    token: string,
    items: unknown[],
  ): Promise<{ status: number | 'dropped'; body?: unknown }> {
    try {
      const res = await sb.call('POST', '/bank-account-transactions/bulk', {
        account: 1001,
        token,
        body: { bankAccountId: bankAccountId('main'), transactions: items },
      });
      return res;
    } catch (error) {
      if (error instanceof TypeError) return { status: 'dropped' };
      throw error;
    }
  }

  async function storedExternalIds(accountId = 1001): Promise<string[]> {
    const res = await admin('GET', `/accounts/${accountId}/transactions`);
    if (res.status !== 200) throw new Error(`dump failed: ${res.status}`);
    return (res.body as { data: { externalId: string }[] }).data.map((t) => t.externalId);
  }

  async function stats() {
    return (await admin('GET', '/stats')).body as {
      requests: Record<string, Record<string, number>>;
      maxConcurrentByAccount: Record<string, number>;
      cpu: { user: number; system: number };
      faultsInjected: Record<string, number>;
    };
  }

  return { admin, bankAccountId, transactions, bulk, storedExternalIds, stats };
}
