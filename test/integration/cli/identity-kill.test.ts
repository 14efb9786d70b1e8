import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFaultInjector } from '../../../src/sandbox/faults.js';
import { type SandboxHandle, startSandbox } from '../../../src/sandbox/server.js';
import type { RunSummary } from '../../../src/sync/report/summary.js';
import { transactionsExport } from '../../support/generated-exports.js';
import { CliProcess, until } from '../../support/worker-process.js';

/**
 * Issue 26 point 5: a sync killed (SIGKILL: no end of its own) after its first chunk was created
 * has stored the identity settings it sent under, so a later change of the mapping is stopped
 * instead of creating the records again under new derived IDs.
 */
const work = mkdtempSync(join(tmpdir(), 'erp-bridge-identity-kill-'));
let sandbox: SandboxHandle;
beforeAll(async () => {
  // Slow creates: the first chunk is in the service while the run is still under way.
  const faults = createFaultInjector({
    seed: 1,
    latency: { ms: 700, jitterMs: 0, ops: ['createTransactionsBulk'] },
    script: [],
  });
  sandbox = await startSandbox({ faults });
});
afterAll(async () => {
  await sandbox.close();
  rmSync(work, { recursive: true, force: true });
});

function sync(feedFile: string, reportDir: string): CliProcess {
  return new CliProcess(['sync', feedFile, '--report-dir', reportDir, '--no-progress'], {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PARTNER_API_URL: sandbox.url,
    PARTNER_AUTH_URL: sandbox.authUrl,
    PARTNER_CLIENT_ID: sandbox.clientId,
    PARTNER_CLIENT_SECRET: sandbox.clientSecret,
  });
}

/** The transactions of the bank account `externalId`. */
function transactionsOf(externalId: string) {
  const account = sandbox.runtime.state.accounts.get(1001);
  const bank = [...(account?.bankAccounts.values() ?? [])].find((b) => b.externalId === externalId);
  return bank ? [...(account?.transactions.get(bank.id)?.values() ?? [])] : [];
}

describe('erp-bridge sync killed after its first write', () => {
  it('stores the identity settings before it writes: the changed mapping is stopped next time (exit 2)', async () => {
    const name = 'identity-kill';
    const bankAccount = `${name}-giro`;
    const generated = transactionsExport({
      rows: 6_000,
      invalidRows: [],
      excludedRows: [],
      name,
      bankAccount,
    });
    // No ID column: every record's externalId is derived from its identity fields.
    const feedText = readFileSync(generated.feedFile, 'utf8').replace('  externalId: Buchungs-ID\n', '');
    expect(feedText).not.toContain('externalId: Buchungs-ID');
    writeFileSync(generated.feedFile, feedText);
    const reportDir = mkdtempSync(join(work, 'reports-'));

    const killed = sync(generated.feedFile, reportDir);
    await until(() => transactionsOf(bankAccount).length > 0, 60_000, 'the first chunk to be created');
    killed.child.kill('SIGKILL');
    expect(await killed.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(transactionsOf(bankAccount).every((t) => t.externalId?.startsWith('erpb2-'))).toBe(true);

    // The purpose now joins another column: every derived ID would change.
    writeFileSync(
      generated.feedFile,
      feedText.replace('  purpose: Verwendungszweck\n', '  purpose: { columns: [Verwendungszweck, Info] }\n'),
    );
    const next = sync(generated.feedFile, reportDir);
    const exit = await next.exited;
    expect(exit.code, next.describe()).toBe(2);
    const inService = transactionsOf(bankAccount).length;
    expect(inService).toBeGreaterThan(0);
    expect(inService).toBeLessThan(6_000);
    const summaries = readdirSync(reportDir)
      .filter((entry) => !entry.startsWith('.'))
      .flatMap((entry) => {
        try {
          return [JSON.parse(readFileSync(join(reportDir, entry, 'summary.json'), 'utf8')) as RunSummary];
        } catch {
          return []; // the killed run's folder: no summary
        }
      });
    expect(summaries).toHaveLength(1);
    const [stopped] = summaries;
    expect(stopped?.stopReason?.code).toBe('IDENTITY_CHANGED');
    // Exactly the records the killed run had created are counted, not all 6000 of the file.
    expect(stopped?.stopReason?.message).toContain(
      `${inService} record(s) of this run are in the service under the old derived IDs`,
    );
    expect(stopped?.counts).toMatchObject({ created: 0, failed: 6_000 });
  }, 180_000);
});
