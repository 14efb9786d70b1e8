import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFaultInjector } from '../../../src/sandbox/faults.js';
import { type SandboxHandle, startSandbox } from '../../../src/sandbox/server.js';
import type { RecordOutcome } from '../../../src/sync/outcome.js';
import type { RunSummary } from '../../../src/sync/report/summary.js';
import { transactionsExport } from '../../support/generated-exports.js';
import { CliProcess, until } from '../../support/worker-process.js';

/**
 * Ctrl-C (SIGINT) and SIGTERM during `erp-bridge sync`, sent to a real child process while the
 * sandbox answers every bulk create slowly: the run ends as `interrupted` with a summary, exit
 * 130/143, every read-but-unsent record failed/INTERRUPTED, and the rerun completes the file
 * without a duplicate.
 */
const work = mkdtempSync(join(tmpdir(), 'erp-bridge-sync-interrupt-'));
const slowCreates = {
  seed: 1,
  latency: { ms: 700, jitterMs: 0, ops: ['createTransactionsBulk' as const] },
  script: [],
};
const faults = createFaultInjector(slowCreates);
let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startSandbox({ faults });
});
afterAll(async () => {
  await sandbox.close();
  rmSync(work, { recursive: true, force: true });
});

function sync(feedFile: string, reportDir: string, env: Record<string, string> = {}): CliProcess {
  return new CliProcess(['sync', feedFile, '--report-dir', reportDir, '--no-progress'], {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PARTNER_API_URL: sandbox.url,
    PARTNER_AUTH_URL: sandbox.authUrl,
    PARTNER_CLIENT_ID: sandbox.clientId,
    PARTNER_CLIENT_SECRET: sandbox.clientSecret,
    ...env,
  });
}

const transactionsOf = (externalPrefix: string) =>
  [...(sandbox.runtime.state.accounts.get(1001)?.transactions.values() ?? [])]
    .flatMap((byId) => [...byId.values()])
    .filter((t) => String((t as { externalId?: string }).externalId).startsWith(externalPrefix));

function runOf(reportDir: string): { summary: RunSummary; outcomes: RecordOutcome[] } {
  const [run] = readdirSync(reportDir).filter((entry) => !entry.startsWith('.'));
  const dir = join(reportDir, String(run));
  return {
    summary: JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as RunSummary,
    outcomes: readFileSync(join(dir, 'outcomes.ndjson'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as RecordOutcome),
  };
}

describe('erp-bridge sync interrupted', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    '%s: stores what was in flight, writes an interrupted summary, exits %i; the rerun completes without duplicates',
    async (signal, code) => {
      const name = `intr-${signal.toLowerCase()}`;
      const rows = 8_000;
      const generated = transactionsExport({ rows, invalidRows: [], excludedRows: [], name });
      const first = sync(generated.feedFile, mkdtempSync(join(work, 'reports-')));
      await until(() => transactionsOf(name).length > 0, 60_000, 'the first chunk to be created');
      first.child.kill(signal);
      const exit = await first.exited;
      expect(exit.code, first.describe()).toBe(code);
      expect(first.stderr).not.toMatch(/\n\s+at /); // no stack trace

      const reportDir = first.args[first.args.indexOf('--report-dir') + 1] as string;
      const { summary, outcomes } = runOf(reportDir);
      expect(summary.state).toBe('interrupted');
      expect(summary.interrupted?.signal).toBe(signal);
      const [unread] = summary.interrupted?.unread ?? [];
      expect(unread?.readUpToLine).toBeGreaterThan(1);
      expect(unread?.readUpToLine).toBeLessThan(rows + 1);
      // Every line read has exactly one outcome; none beyond the line where reading stopped.
      const lines = outcomes.map((o) => o.line).sort((a, b) => a - b);
      expect(lines).toEqual(Array.from({ length: (unread?.readUpToLine ?? 0) - 1 }, (_, i) => i + 2));
      const interrupted = outcomes.filter((o) => o.code === 'INTERRUPTED');
      expect(interrupted.length).toBeGreaterThan(0);
      expect(interrupted.every((o) => o.outcome === 'failed')).toBe(true);
      // What was created is in the report as created (the in-flight chunk settled within the grace).
      expect(summary.counts.created).toBe(transactionsOf(name).length);
      expect(summary.counts.failed).toBe(interrupted.length);

      const rerun = sync(generated.feedFile, mkdtempSync(join(work, 'reports-')));
      const rerunExit = await rerun.exited;
      expect(rerunExit.code, rerun.describe()).toBe(0);
      const again = runOf(rerun.args[rerun.args.indexOf('--report-dir') + 1] as string).summary;
      expect(again.state).toBe('completed');
      expect(again.counts).toMatchObject({
        created: rows - summary.counts.created,
        skipped: summary.counts.created,
      });
      const ids = transactionsOf(name).map((t) => (t as { externalId: string }).externalId);
      expect(ids).toHaveLength(rows);
      expect(new Set(ids).size).toBe(rows);
    },
    180_000,
  );

  it('a second signal stops at once, with the same exit code', async () => {
    const name = 'intr-twice';
    const generated = transactionsExport({ rows: 4_000, invalidRows: [], excludedRows: [], name });
    const reportDir = mkdtempSync(join(work, 'reports-'));
    // In-flight chunks could keep the first signal waiting for a minute.
    const ran = sync(generated.feedFile, reportDir, { ERP_BRIDGE_SHUTDOWN_GRACE_S: '60' });
    await until(() => ran.stderr.length > 0 || transactionsOf(name).length > 0, 60_000, 'the run to start');
    faults.configure({ seed: 1, latency: { ms: 20_000, jitterMs: 0 }, script: [] });
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      ran.child.kill('SIGINT');
      await until(() => ran.stderr.includes('SIGINT: stopping'), 10_000, 'the first signal to be heard');
      const sent = Date.now();
      ran.child.kill('SIGINT');
      const exit = await ran.exited;
      expect(exit.code, ran.describe()).toBe(130);
      expect(Date.now() - sent).toBeLessThan(5_000);
      expect(ran.stderr).not.toMatch(/\n\s+at /);
    } finally {
      faults.configure(slowCreates);
    }
  }, 120_000);

  it('after the grace period, requests still in flight are aborted and their records end INTERRUPTED', async () => {
    const name = 'intr-grace';
    // A target bank account of its own: once it exists, this run (not an earlier test's leftover
    // request) is under way, and its signal handlers are in place.
    const bankAccount = `${name}-giro`;
    const generated = transactionsExport({
      rows: 1_500,
      invalidRows: [],
      excludedRows: [],
      name,
      bankAccount,
    });
    const reportDir = mkdtempSync(join(work, 'reports-'));
    faults.configure({
      seed: 1,
      latency: { ms: 30_000, jitterMs: 0, ops: ['createTransactionsBulk'] },
      script: [],
    });
    try {
      const ran = sync(generated.feedFile, reportDir, { ERP_BRIDGE_SHUTDOWN_GRACE_S: '1' });
      const started = () =>
        [...(sandbox.runtime.state.accounts.get(1001)?.bankAccounts.values() ?? [])].some(
          (b) => b.externalId === bankAccount,
        );
      const busy = () => (sandbox.runtime.stats.snapshot().inFlightByAccount['1001'] ?? 0) > 0;
      await until(() => started() && busy(), 60_000, 'a request of this run in flight');
      // Lookups answer at once; what is still in flight a moment later is the held bulk create.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(busy()).toBe(true);
      const sent = Date.now();
      ran.child.kill('SIGTERM');
      const exit = await ran.exited;
      expect(exit.code, ran.describe()).toBe(143);
      expect(Date.now() - sent).toBeLessThan(10_000);
      const { summary, outcomes } = runOf(reportDir);
      expect(summary.state).toBe('interrupted');
      expect(summary.counts.created).toBe(0);
      expect(outcomes.length).toBe(summary.counts.failed);
      expect(outcomes.every((o) => o.outcome === 'failed' && o.code === 'INTERRUPTED')).toBe(true);
    } finally {
      faults.configure(slowCreates);
    }
  }, 120_000);
});
