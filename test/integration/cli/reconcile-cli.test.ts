import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliRun, cliSandboxPerFile, repoRoot, runCli } from '../../support/cli-run.js';

/**
 * The done-when through the CLI: a demo tenant provisioned from CSV, its bank transactions
 * and invoices synced, `reconcile` equal (exit 0); one transaction deleted and one invoice edited in
 * the sandbox, `reconcile` names both (exit 4); `--repair` restores them (exit 0).
 */
const demo = (name: string) => join(repoRoot, 'config/feeds/demo', `${name}.yaml`);
const { work, sandbox, env } = cliSandboxPerFile('reconcile-cli');
const reportDir = join(work, 'reports');
const cli = (command: string, args: string[], overrides: Record<string, string> = {}): Promise<CliRun> =>
  runCli([command, ...args, '--report-dir', reportDir], env(overrides));

describe('erp-bridge reconcile', () => {
  it('equal after a sync; names a deleted transaction and an edited invoice (exit 4); --repair restores them (exit 0)', async () => {
    const feeds = [demo('tenant-bank'), demo('tenant-invoices')];
    const synced = await cli('sync', [demo('tenants'), ...feeds, '--no-progress']);
    expect(synced.code, synced.stderr).toBe(0);

    const equal = await cli('reconcile', feeds);
    expect(equal.code, equal.stderr).toBe(0);
    expect(equal.stdout).toContain('demo-tenant-bank: equal (bank account "nordwind-giro"');
    expect(equal.stdout).toContain('6 equal, 0 missing, 0 different, 0 extra in the service');
    expect(equal.stdout).toContain('exports: 6 records, sum 12501.79; service: 6 records, sum 12501.79');
    expect(equal.stdout).toContain('demo-tenant-invoices: equal');

    const tenant = [...sandbox().runtime.state.accounts.values()].find((a) => a.externalId === 'nordwind');
    if (!tenant) throw new Error('the demo tenant was not provisioned');
    const tx = [...tenant.transactions.values()].flat().find((t) => t.externalId === 'NW-2026-0003');
    const deleted = await fetch(
      `${sandbox().authUrl}/_sandbox/accounts/${tenant.id}/transactions/${tx?.id}`,
      {
        method: 'DELETE',
      },
    );
    expect(deleted.status).toBe(200);
    const invoice = [...tenant.invoices.values()].find((i) => i.externalId === 'NW-RE-0119');
    if (!invoice) throw new Error('the demo invoice was not synced');
    invoice.openAmount = 950;

    const found = await cli('reconcile', feeds);
    expect(found.code, found.stderr).toBe(4);
    expect(found.stdout).toMatch(/missing: .*nordwind-bank\.csv:4 NW-2026-0003/);
    expect(found.stdout).toMatch(
      /different: .*nordwind-invoices\.csv:4 NW-RE-0119: openAmount 5950 \(service 950\)/,
    );

    const repaired = await cli('reconcile', [...feeds, '--repair']);
    expect(repaired.code, repaired.stdout).toBe(0);
    expect(repaired.stdout).toContain('repair: completed: 1 created, 0 updated');
    expect(repaired.stdout).toContain('repair: completed: 0 created, 1 updated');
    expect(repaired.stdout.split('after the repair:').length).toBe(3);
    expect(invoice.openAmount).toBe(5950);
  });

  it('--repair names each record it could not change, why, and what to do (a transaction edited in the service)', async () => {
    const feeds = [demo('tenant-bank')];
    const synced = await cli('sync', [demo('tenants'), ...feeds, '--no-progress']);
    expect(synced.code, synced.stderr).toBe(0);
    const tenant = [...sandbox().runtime.state.accounts.values()].find((a) => a.externalId === 'nordwind');
    const tx = [...(tenant?.transactions.values() ?? [])].flat().find((t) => t.externalId === 'NW-2026-0002');
    if (!tx) throw new Error('the demo transaction was not synced');
    tx.amount += 1;

    const repaired = await cli('reconcile', [...feeds, '--repair']);
    expect(repaired.code, repaired.stdout).toBe(4);
    expect(repaired.stdout).toContain('repair: completed: 0 created, 0 updated, 1 skipped');
    expect(repaired.stdout).toMatch(
      /not changed: \S*nordwind-bank\.csv:3 NW-2026-0002: skipped: already in the service\n {4}what to do: the partner API has no update for bank transactions: change it in the service by hand/,
    );
  });

  it('exit 2 for a kind it does not reconcile or a missing setting, exit 3 for an unreachable service', async () => {
    const plans = await cli('reconcile', [demo('plans')]);
    expect(plans.code).toBe(2);
    expect(plans.stderr).toContain('reconcile does not support kind plans yet');
    const unset = await cli('reconcile', [demo('tenant-bank')], { PARTNER_API_URL: '' });
    expect(unset.code).toBe(2);
    expect(unset.stderr).toContain('PARTNER_API_URL');
    const unknown = await runCli(['reconcile', demo('tenant-bank'), '--report-dir', reportDir], {
      ...env(),
      PARTNER_API_URL: 'http://127.0.0.1:9/v2',
      PARTNER_AUTH_URL: 'http://127.0.0.1:9',
    });
    expect(unknown.code, unknown.stdout + unknown.stderr).toBe(3);
  });
});
