import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PartnerClient } from '../../../src/client/index.js';
import { loadFeedFile } from '../../../src/config/load-feed.js';
import { MemoryGate } from '../../../src/gate/memory-gate.js';
import { runFeed } from '../../../src/in-process/runner.js';
import { createLogger } from '../../../src/logging/logger.js';
import type { RunSummary } from '../../../src/sync/report/summary.js';
import { systemClock } from '../../../src/time/clock.js';
import { cliSandboxPerFile, runCli } from '../../support/cli-run.js';
import { transactionsExport } from '../../support/generated-exports.js';

/**
 * Issue 26.6, "no path of a location ends in 'unexpected error'", for the local disk: a file or
 * folder the disk refuses, and a file removed between the listing and its reading, stop that feed
 * with its code (PERMISSION_DENIED exit 3, NO_SUCH_FILE exit 1, as on SFTP), its summary and
 * report; the other feeds of the same sync go on. The tests run as root here, which permission
 * bits do not stop: the refusals are the kernel's own, which no mode bit lifts for root (a
 * write-only sysfs attribute opened for reading, another process's /proc map_files folder),
 * reached through symbolic links the glob follows. Where the machine has neither, those cases skip.
 */
const { work, sandbox, env } = cliSandboxPerFile('local-read-errors');

/** A path whose open for reading the kernel refuses (EACCES) even to root, or undefined. */
function refusedFile(): string | undefined {
  for (const path of ['/sys/bus/pci/rescan', '/sys/class/zram-control/hot_remove'])
    try {
      readFileSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EACCES') return path;
    }
  return undefined;
}

/** A folder whose listing the kernel refuses (EACCES) even to root, or undefined. */
async function refusedFolder(): Promise<string | undefined> {
  for (const path of ['/proc/1/map_files', '/proc/1/fdinfo'])
    if (
      await readdir(path).then(
        () => false,
        (e: NodeJS.ErrnoException) => e.code === 'EACCES',
      )
    )
      return path;
  return undefined;
}

const refusedFileAt = refusedFile();
const refusedFolderAt = await refusedFolder();

/** A transactions feed of `rows` records on the local disk, all to one bank account. */
function feed(name: string, rows: number) {
  return transactionsExport({ rows, name, invalidRows: [], excludedRows: [], bankAccount: 'local-errors' });
}

function withPath(feedFile: string, path: string): void {
  writeFileSync(feedFile, readFileSync(feedFile, 'utf8').replace('  path: umsaetze.csv', `  path: ${path}`));
}

function summaries(reportDir: string): Record<string, RunSummary> {
  const byFeed: Record<string, RunSummary> = {};
  for (const run of readdirSync(reportDir).filter((e) => !e.startsWith('.'))) {
    expect(readdirSync(join(reportDir, run)).filter((f) => f.endsWith('.part'))).toEqual([]);
    const summary = JSON.parse(readFileSync(join(reportDir, run, 'summary.json'), 'utf8')) as RunSummary;
    byFeed[summary.feed] = summary;
  }
  return byFeed;
}

describe('local disk read errors stop their feed, not the command', () => {
  it.skipIf(refusedFileAt === undefined || refusedFolderAt === undefined)(
    'a file and a folder the disk refuses: each feed stopped with PERMISSION_DENIED (exit 3), the healthy feed syncs every record',
    async () => {
      const file = feed('local-refused-file', 3);
      rmSync(join(file.dir, 'umsaetze.csv'));
      symlinkSync(refusedFileAt as string, join(file.dir, 'umsaetze.csv'));
      const folder = feed('local-refused-folder', 3);
      symlinkSync(refusedFolderAt as string, join(folder.dir, 'inbox'));
      withPath(folder.feedFile, 'inbox/*.csv');
      // No wildcard: the file's own name in the refused folder (found missing, then its folder listed).
      const named = feed('local-refused-named', 3);
      symlinkSync(refusedFolderAt as string, join(named.dir, 'inbox'));
      withPath(named.feedFile, 'inbox/umsaetze.csv');
      const healthy = feed('local-healthy', 40);
      const reportDir = mkdtempSync(join(work, 'reports-'));

      const ran = await runCli(
        [
          'sync',
          file.feedFile,
          folder.feedFile,
          named.feedFile,
          healthy.feedFile,
          '--report-dir',
          reportDir,
          '--no-progress',
        ],
        env(),
      );
      expect(`${ran.stdout}${ran.stderr}`).not.toContain('unexpected error');
      expect(ran.code, ran.stdout + ran.stderr).toBe(3);
      const byFeed = summaries(reportDir);
      expect(byFeed['local-refused-file']).toMatchObject({
        state: 'stopped',
        stopReason: {
          code: 'PERMISSION_DENIED',
          exitCode: 3,
          message: expect.stringContaining(
            `local disk: read ${join(file.dir, 'umsaetze.csv')}: permission denied`,
          ),
        },
      });
      expect(byFeed['local-refused-folder']).toMatchObject({
        state: 'stopped',
        stopReason: {
          code: 'PERMISSION_DENIED',
          exitCode: 3,
          message: expect.stringContaining(
            `local disk: list ${join(folder.dir, 'inbox')}: permission denied`,
          ),
        },
      });
      expect(byFeed['local-refused-named']?.stopReason).toMatchObject({
        code: 'PERMISSION_DENIED',
        message: expect.stringContaining(`local disk: list ${join(named.dir, 'inbox')}: permission denied`),
      });
      expect(byFeed['local-healthy']?.counts).toMatchObject({ created: 40, failed: 0, rejected: 0 });
      expect(ran.stdout).toMatch(/^local-refused-file: stopped: .*permission denied/m);
      expect(ran.stdout).toMatch(/^local-refused-folder: stopped: .*permission denied/m);
      for (const summary of Object.values(byFeed))
        expect(existsSync(join(reportDir, summary.runId, 'outcomes.csv'))).toBe(true);
    },
    60_000,
  );

  it('a file removed between the listing and its reading: the run stops with NO_SUCH_FILE (exit 1) after the first file', async () => {
    const exp = feed('local-removed', 30);
    // Listed after umsaetze.csv ('_' sorts after '.'): read second.
    copyFileSync(join(exp.dir, 'umsaetze.csv'), join(exp.dir, 'umsaetze_2.csv'));
    withPath(exp.feedFile, 'umsaetze*.csv');
    const second = join(exp.dir, 'umsaetze_2.csv');
    const client = new PartnerClient({
      baseUrl: sandbox().url,
      authUrl: sandbox().authUrl,
      clientId: sandbox().clientId,
      clientSecret: sandbox().clientSecret,
    });
    try {
      const { summary } = await runFeed(await loadFeedFile(exp.feedFile), false, {
        client,
        clock: systemClock,
        logger: createLogger({ level: 'silent' }),
        gate: new MemoryGate(systemClock),
        reportDir: mkdtempSync(join(tmpdir(), 'erp-bridge-local-removed-')),
        // The first bytes of the first file read: both files were listed, the second is not open yet.
        onProgress: () => {
          if (existsSync(second)) unlinkSync(second);
        },
      });
      expect(summary).toMatchObject({
        state: 'stopped',
        counts: { created: 30 },
        stopReason: {
          code: 'NO_SUCH_FILE',
          exitCode: 1,
          message: expect.stringContaining(
            `local disk: read ${second}: gone or no longer a file since it was listed`,
          ),
        },
      });
    } finally {
      await client.close();
    }
  });
});
