import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../../src/sandbox/server.js';
import type { RunSummary } from '../../../src/sync/report/summary.js';
import { runCli } from '../../support/cli-run.js';

/**
 * `erp-bridge sync` as users run it: a child process (from source via tsx), its exit code, its
 * output and the report folders it writes. The sandbox is in this process so its state can be read.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const demo = (name: string) => join(root, 'config/feeds/demo', `${name}.yaml`);
const work = mkdtempSync(join(tmpdir(), 'erp-bridge-sync-cli-'));
let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
  rmSync(work, { recursive: true, force: true });
});

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  reportDir: string;
}

function partnerEnv(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    PARTNER_API_URL: sandbox.url,
    PARTNER_AUTH_URL: sandbox.authUrl,
    PARTNER_CLIENT_ID: 'sandbox-client',
    PARTNER_CLIENT_SECRET: 'sandbox-secret',
    ...overrides,
  };
}

async function sync(
  args: string[],
  env: Record<string, string | undefined>,
  reportDir = mkdtempSync(join(work, 'reports-')),
): Promise<Ran> {
  return { ...(await runCli(['sync', ...args, '--report-dir', reportDir], env)), reportDir };
}

/** Every run folder's summary (dot files, such as the feeds' health state, are no runs). */
function summaries(reportDir: string): RunSummary[] {
  return readdirSync(reportDir)
    .filter((entry) => !entry.startsWith('.'))
    .map((run) => JSON.parse(readFileSync(join(reportDir, run, 'summary.json'), 'utf8')) as RunSummary);
}

const sandboxTransactions = () =>
  [...(sandbox.runtime.state.accounts.get(1001)?.transactions.values() ?? [])].flatMap((m) => [
    ...m.values(),
  ]);

describe('erp-bridge sync', () => {
  it('exits 0 when every record is created or skipped, and 1 when some are rejected', async () => {
    sandbox.runtime.reset();
    const clean = await sync([demo('sparkasse')], partnerEnv());
    expect(clean.stderr).not.toMatch(/error/i);
    expect(clean.code).toBe(0);
    const [summary] = summaries(clean.reportDir);
    expect(summary?.counts).toMatchObject({ created: 12, skipped: 1, rejected: 0, failed: 0 });

    const withBadRows = await sync([demo('sparkasse'), demo('rejects/acme-bank')], partnerEnv());
    expect(withBadRows.code).toBe(1);
    const byFeed = Object.fromEntries(summaries(withBadRows.reportDir).map((s) => [s.feed, s]));
    expect(byFeed['demo-sparkasse']?.counts).toMatchObject({ created: 0, skipped: 13 });
    expect(byFeed['demo-rejects-acme-bank']?.counts.rejected).toBe(1);
    // The plain-text summary names each feed and where its report is.
    expect(withBadRows.stdout).toContain('demo-rejects-acme-bank: completed_with_errors');
    expect(withBadRows.stdout).toContain(withBadRows.reportDir);
  });

  it("the README's first command exits 0: every demo feed, in one --sandbox run, is clean", async () => {
    const feeds = readdirSync(join(root, 'config/feeds/demo'))
      .filter((name) => name.endsWith('.yaml'))
      .map((name) => join(root, 'config/feeds/demo', name));
    expect(feeds.length).toBeGreaterThanOrEqual(14);
    const ran = await sync([...feeds, '--sandbox'], {});
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    const runs = summaries(ran.reportDir);
    expect(runs).toHaveLength(feeds.length);
    for (const run of runs) {
      expect(run.state, run.feed).toBe('completed');
      expect(run.counts, run.feed).toMatchObject({ rejected: 0, failed: 0 });
      // Statements that do not add up would be a warning in a clean tour: the demo's add up.
      for (const file of run.files) expect(file.statements?.warnings ?? [], run.feed).toEqual([]);
    }
  }, 120_000);

  it('the demo of deliberate bad rows (config/feeds/demo/rejects) rejects one row per feed and exits 1', async () => {
    const ran = await sync(
      ['acme-bank', 'invoices', 'plans'].map((name) => demo(`rejects/${name}`)).concat('--sandbox'),
      {},
    );
    expect(ran.code).toBe(1);
    const rejected = Object.fromEntries(summaries(ran.reportDir).map((s) => [s.feed, s.counts.rejected]));
    expect(rejected).toEqual({
      'demo-rejects-acme-bank': 1,
      'demo-rejects-invoices': 1,
      'demo-rejects-plans': 1,
    });
  });

  it('--dry-run writes nothing and lists what would be sent', async () => {
    sandbox.runtime.reset();
    const before = sandboxTransactions().length;
    const ran = await sync([demo('sparkasse'), '--dry-run'], partnerEnv());
    expect(ran.code).toBe(0);
    expect(sandboxTransactions().length).toBe(before);
    const [run] = readdirSync(ran.reportDir);
    const wouldSend = readFileSync(join(ran.reportDir, String(run), 'would-send.ndjson'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { line: number; payload: { amount: number } });
    expect(wouldSend).toHaveLength(12);
    expect(summaries(ran.reportDir)[0]).toMatchObject({ dryRun: true, wouldSend: 12 });
    expect(wouldSend.every((w) => typeof w.payload.amount === 'number' && w.line > 1)).toBe(true);
  });

  it('exits 2 for an invalid feed file, naming the file and the key', async () => {
    const feed = join(work, 'broken.yaml');
    writeFileSync(
      feed,
      'name: broken\naccountId: "one"\nkind: transactions\nsource: { path: x.csv, format: csv }\nmapping: {}\n',
    );
    const ran = await sync([feed], partnerEnv());
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('broken.yaml');
    expect(ran.stderr).toContain('accountId');
  });

  it('exits 2 for a report folder that cannot be created, naming --report-dir, before sending anything', async () => {
    const file = join(work, 'not-a-folder');
    writeFileSync(file, 'a file, so nothing can be created below it\n');
    const before = sandboxTransactions().length;
    const ran = await sync([demo('acme-bank')], partnerEnv(), join(file, 'reports'));
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(`--report-dir ${join(file, 'reports')}`);
    expect(ran.stderr).not.toContain('unexpected error');
    expect(sandboxTransactions()).toHaveLength(before);
  });

  it('exits 2 when the service configuration is incomplete, naming the variable', async () => {
    const ran = await sync([demo('sparkasse')], partnerEnv({ PARTNER_CLIENT_SECRET: '' }));
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('PARTNER_CLIENT_SECRET');
  });

  it('exits 2 on a usage error (unknown option), not 1, which means rejected records', async () => {
    const ran = await sync([demo('sparkasse'), '--no-such-option'], partnerEnv({}));
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain("unknown option '--no-such-option'");
  });

  it('exits 2 for an invalid alert setting, naming the variable but never the webhook URL', async () => {
    const ran = await sync(
      [demo('sparkasse')],
      partnerEnv({
        ERP_BRIDGE_ALERT_WEBHOOK_URL: 'ftp://hooks.example.com/t0k3n',
        ERP_BRIDGE_ALERT_DROP_SHARE: '2',
      }),
    );
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('ERP_BRIDGE_ALERT_WEBHOOK_URL: expected an http:// or https:// URL');
    expect(ran.stderr).toContain('ERP_BRIDGE_ALERT_DROP_SHARE: expected a number from 0 to 1');
    expect(ran.stderr).not.toContain('t0k3n');
  });

  it('exits 3 when the credentials are refused or the service cannot be reached', async () => {
    const refused = await sync([demo('sparkasse')], partnerEnv({ PARTNER_CLIENT_SECRET: 'wrong-secret' }));
    expect(refused.code).toBe(3);
    expect(refused.stderr + refused.stdout).not.toContain('wrong-secret');

    const unreachable = await sync(
      [demo('sparkasse')],
      partnerEnv({ PARTNER_API_URL: 'http://127.0.0.1:9/v2', PARTNER_AUTH_URL: 'http://127.0.0.1:9' }),
    );
    expect(unreachable.code).toBe(3);
    // The unreachable token endpoint is retried like a 500 (1 s, 2 s, 4 s of real time) before the
    // run gives up: allow for that on a loaded CI machine.
  });

  it('uses an embedded sandbox only with --sandbox, names it as the target, and leaves feed health alone', async () => {
    const ran = await sync([demo('sparkasse'), '--sandbox'], {});
    expect(ran.code).toBe(0);
    expect(ran.stderr).toContain('embedded sandbox');
    expect(ran.stdout).toContain('(embedded sandbox)');
    const [summary] = summaries(ran.reportDir);
    expect(summary).toMatchObject({ target: 'embedded sandbox', counts: { created: 12 } });
    // The real feed's health state is neither read nor written by a sandbox run.
    expect(readdirSync(ran.reportDir).filter((entry) => entry.startsWith('.'))).toEqual([]);
  });

  it('says a rerun of replace-mode plans set the values again, not that it created them again', async () => {
    const first = await sync([demo('plans')], partnerEnv());
    const again = await sync([demo('plans')], partnerEnv());
    const [summary] = summaries(again.reportDir);
    const set = summary?.counts.created ?? 0;
    expect(set).toBeGreaterThan(0);
    for (const ran of [first, again]) {
      expect(ran.stdout).toContain(
        `0 created, ${set} set for their period (replacing what it held: a rerun sets them again, never twice)`,
      );
    }
    expect(summary?.valuesSet).toBe(set);
  });

  it('provisions a tenant from CSV in one sync: accounts first, then users and categories naming them', async () => {
    // The accounts feed is listed last on purpose: sync runs it before the feeds that need its accounts.
    const ran = await sync(
      [demo('tenant-users'), demo('tenant-categories'), demo('tenants'), '--sandbox'],
      {},
    );
    expect(ran.code, ran.stderr).toBe(0);
    const byFeed = Object.fromEntries(summaries(ran.reportDir).map((s) => [s.feed, s.counts]));
    expect(byFeed['demo-tenants']).toMatchObject({ created: 2, failed: 0, rejected: 0 });
    expect(byFeed['demo-tenant-users']).toMatchObject({ created: 4, failed: 0, rejected: 0 });
    expect(byFeed['demo-tenant-categories']).toMatchObject({ created: 10, failed: 0, rejected: 0 });
  });

  it("syncs a provisioned tenant's bank transactions and invoices by the tenant's externalId", async () => {
    const ran = await sync([demo('tenant-bank'), demo('tenant-invoices'), demo('tenants'), '--sandbox'], {});
    expect(ran.code, ran.stderr).toBe(0);
    const byFeed = Object.fromEntries(summaries(ran.reportDir).map((s) => [s.feed, s]));
    expect(byFeed['demo-tenant-bank']?.counts).toMatchObject({ created: 6, failed: 0, rejected: 0 });
    expect(byFeed['demo-tenant-invoices']?.counts).toMatchObject({ created: 3, failed: 0, rejected: 0 });
    // The tenant's own id, not the partner scope (0) the feed file leaves it at.
    expect(byFeed['demo-tenant-bank']?.accountId).toBeGreaterThan(0);
    // A dry run of the provisioning sync: the tenant does not exist yet, its records would be sent.
    const dry = await sync([demo('tenant-bank'), demo('tenants'), '--dry-run', '--sandbox'], {});
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('demo-tenant-bank: dry run, 6 would be sent');
    const unknown = await sync([demo('tenant-bank'), '--sandbox'], {});
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toContain('accountExternalId "nordwind" names no customer account');
  });

  it('names the service as the target of a real run', async () => {
    sandbox.runtime.reset();
    const ran = await sync([demo('sparkasse')], partnerEnv());
    expect(ran.code).toBe(0);
    expect(summaries(ran.reportDir)[0]?.target).toBe(sandbox.url.replace(/\/+$/, ''));
    expect(ran.stdout).toContain(`(${sandbox.url.replace(/\/+$/, '')})`);
  });

  it('without --sandbox, a missing configuration is exit 2 naming every variable, before any file is read', async () => {
    const missingFeed = join(work, 'no-such-feed.yaml');
    for (const extra of [[], ['--dry-run']]) {
      const ran = await sync([missingFeed, ...extra], { PARTNER_API_ULR: 'http://127.0.0.1:9/v2' });
      expect(ran.code).toBe(2);
      for (const variable of [
        'PARTNER_API_URL',
        'PARTNER_AUTH_URL',
        'PARTNER_CLIENT_ID',
        'PARTNER_CLIENT_SECRET',
      ])
        expect(ran.stderr).toContain(variable);
      expect(ran.stderr).toContain('PARTNER_API_ULR is set: did you mean PARTNER_API_URL?');
      expect(ran.stderr).toContain('erp-bridge sync --sandbox');
      // The feed file (which does not exist) was never opened: the target is checked first.
      expect(ran.stderr).not.toContain('no-such-feed.yaml');
      expect(ran.stderr).not.toContain('embedded sandbox');
    }
    const partial = await sync([demo('sparkasse')], partnerEnv({ PARTNER_API_URL: '' }));
    expect(partial.code).toBe(2);
    expect(partial.stderr).toContain('PARTNER_API_URL');
    expect(partial.stderr).not.toContain('PARTNER_CLIENT_ID');
  });

  it('rejects an unknown --log-level (exit 2), naming the levels', async () => {
    const ran = await sync([demo('sparkasse'), '--log-level', 'verbose'], partnerEnv());
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain("'verbose' is invalid");
    expect(ran.stderr).toContain('debug');
  });
});
