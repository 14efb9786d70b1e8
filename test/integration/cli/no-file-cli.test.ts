import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../../src/sync/report/summary.js';
import { cliSandboxPerFile, runCli } from '../../support/cli-run.js';

/**
 * Issue 26.2: no file is no success. A feed whose folder does not exist, or whose glob matches
 * nothing, used to exit 0 with "completed: 0 created" and a WARN on stderr only.
 */
const { work, env } = cliSandboxPerFile('no-file');

function feedIn(dir: string, path: string, extra = ''): string {
  const file = join(dir, 'feed.yaml');
  writeFileSync(
    file,
    `name: no-file-${dir.split('-').pop()}
accountId: 1001
kind: transactions
source:
  path: ${path}
  format: csv
  delimiter: ";"
${extra}bankAccount: { externalId: no-file-giro, accountName: Giro, bankName: Bank }
mapping:
  externalId: ID
  bookingDate: Date
  amount: Amount
  purpose: Name
`,
  );
  return file;
}

async function sync(feed: string) {
  const reportDir = mkdtempSync(join(work, 'reports-'));
  const ran = await runCli(['sync', feed, '--report-dir', reportDir], env());
  const summaries = readdirSync(reportDir)
    .filter((e) => !e.startsWith('.'))
    .map((run) => JSON.parse(readFileSync(join(reportDir, run, 'summary.json'), 'utf8')) as RunSummary);
  return { ...ran, summaries };
}

describe('issue 26.2: sync with no export file', () => {
  it('a source folder that does not exist: exit 2 naming it', async () => {
    const dir = mkdtempSync(join(work, 'feed-'));
    const ran = await sync(feedIn(dir, 'exprots/acme/umsaetze-*.csv'));
    expect(ran.code, ran.stdout + ran.stderr).toBe(2);
    expect(ran.stdout).toContain(`source folder ${dir}/exprots/acme does not exist`);
    expect(ran.summaries[0]?.stopReason).toMatchObject({ code: 'SOURCE_FOLDER_MISSING', exitCode: 2 });
  });

  it('a glob that matches nothing: exit 2, stdout names the glob and the nearest names in its folder', async () => {
    const dir = mkdtempSync(join(work, 'feed-'));
    mkdirSync(join(dir, 'exports'));
    for (const name of ['Umsaetze_2026-01.csv', 'readme.txt', 'kontoauszug.pdf'])
      writeFileSync(join(dir, 'exports', name), 'ID;Date;Amount;Name\n');
    const ran = await sync(feedIn(dir, 'exports/umsaetze-*.csv'));
    expect(ran.code, ran.stdout + ran.stderr).toBe(2);
    expect(ran.stdout).toContain(`no export file matches ${dir}/exports/umsaetze-*.csv`);
    // The near miss first: a different case and an underscore for the dash.
    expect(ran.stdout).toContain(
      `nearest names in ${dir}/exports: Umsaetze_2026-01.csv, readme.txt, kontoauszug.pdf`,
    );
    expect(ran.stdout).toContain('source.allowNoFiles: true');
    expect(ran.summaries[0]).toMatchObject({ state: 'stopped', stopReason: { code: 'NO_EXPORT_FILE' } });
  });

  it('with source.allowNoFiles: true the same run completes (exit 0) and still says no file matched', async () => {
    const dir = mkdtempSync(join(work, 'feed-'));
    mkdirSync(join(dir, 'exports'));
    const ran = await sync(feedIn(dir, 'exports/umsaetze-*.csv', '  allowNoFiles: true\n'));
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    expect(ran.stdout).toContain(
      `no export file matches ${dir}/exports/umsaetze-*.csv (allowed: source.allowNoFiles)`,
    );
    expect(ran.stdout).toContain(`${dir}/exports is empty`);
    expect(ran.summaries[0]?.noFile).toContain('allowed');
    // A folder that is not there is a wrong setting even then.
    const missing = await sync(feedIn(dir, 'exprots/umsaetze-*.csv', '  allowNoFiles: true\n'));
    expect(missing.code, missing.stdout + missing.stderr).toBe(2);
    expect(missing.stdout).toContain(`source folder ${dir}/exprots does not exist`);
  });

  it('files waiting for their arrival rule are not "no file": exit 0, each named as waiting', async () => {
    const dir = mkdtempSync(join(work, 'feed-'));
    mkdirSync(join(dir, 'exports'));
    writeFileSync(join(dir, 'exports', 'umsaetze-1.csv'), 'ID;Date;Amount;Name\n');
    const ran = await sync(feedIn(dir, 'exports/umsaetze-*.csv', '  arrival: marker\n'));
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    expect(ran.stdout).toContain('waiting:');
    expect(ran.stdout).not.toContain('no export file matches');
  });
});

describe('issue 26.2: reconcile (in process) with no export file follows the same rule', () => {
  const reconcile = (feed: string) =>
    runCli(['reconcile', feed, '--report-dir', mkdtempSync(join(work, 'reports-'))], env());

  it('a glob that matches nothing: exit 2 naming the glob and the nearest names; allowNoFiles: compared (exit 0)', async () => {
    const dir = mkdtempSync(join(work, 'feed-'));
    mkdirSync(join(dir, 'exports'));
    writeFileSync(join(dir, 'exports', 'Umsaetze_2026-01.csv'), 'ID;Date;Amount;Name\n');
    const ran = await reconcile(feedIn(dir, 'exports/umsaetze-*.csv'));
    expect(ran.code, ran.stdout + ran.stderr).toBe(2);
    expect(ran.stdout).toContain(
      `: stopped: no export file matches ${dir}/exports/umsaetze-*.csv; nearest names in ${dir}/exports: Umsaetze_2026-01.csv`,
    );
    expect(ran.stdout).toContain('source.allowNoFiles: true');

    const missing = await reconcile(feedIn(dir, 'exprots/umsaetze-*.csv', '  allowNoFiles: true\n'));
    expect(missing.code, missing.stdout + missing.stderr).toBe(2);
    expect(missing.stdout).toContain(`source folder ${dir}/exprots does not exist`);

    const allowed = await reconcile(feedIn(dir, 'exports/umsaetze-*.csv', '  allowNoFiles: true\n'));
    expect(allowed.code, allowed.stdout + allowed.stderr).toBe(0);
    expect(allowed.stdout).toMatch(/: equal .*\n {2}0 equal, 0 missing/);
  });
});
