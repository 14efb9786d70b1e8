import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { fleetTestWorld } from '../../support/fleet-harness.js';
import { transactionsExport } from '../../support/generated-exports.js';
import { cliProcesses, fleetProcessEnv, SLOW_MACHINE_TIMEOUT_MS } from '../../support/worker-process.js';

/**
 * Issue 26.2 on the fleet: `enqueue` of a feed without an export file used to exit 0 with a WARN
 * on stderr only, and a scheduled tick to complete as if it had found nothing to do.
 */
const world = fleetTestWorld();
const cli = cliProcesses();

/** A generated feed whose export is gone and whose source.path is `path` (relative to the feed). */
function feedWithoutFile(name: string, path: string, extra = '') {
  const exp = transactionsExport({ rows: 3, name, invalidRows: [], excludedRows: [] });
  rmSync(join(exp.dir, 'umsaetze.csv'));
  writeFileSync(
    exp.feedFile,
    readFileSync(exp.feedFile, 'utf8').replace('  path: umsaetze.csv', `  path: ${path}${extra}`),
  );
  return exp;
}

describe('issue 26.2: the fleet with no export file', { timeout: SLOW_MACHINE_TIMEOUT_MS }, () => {
  it('enqueue: a folder that does not exist or a glob that matches nothing exits 2, naming it; the other feeds are enqueued', async () => {
    const fleet = world.start();
    const env = fleetProcessEnv(fleet.config, world.sandbox());
    const missing = feedWithoutFile('nofile-missing', 'exprots/umsaetze-*.csv');
    const typo = feedWithoutFile('nofile-typo', 'Umsaetze_*.csv');
    writeFileSync(join(typo.dir, 'umsaetze-2026-11.csv.tmp'), '');
    const healthy = transactionsExport({
      rows: 3,
      name: 'nofile-healthy',
      invalidRows: [],
      excludedRows: [],
    });

    const ran = await cli.run(['enqueue', missing.feedFile, typo.feedFile, healthy.feedFile], env);
    expect(ran.code, ran.describe()).toBe(2);
    expect(ran.stdout).toContain(`nofile-missing: source folder ${missing.dir}/exprots does not exist`);
    expect(ran.stdout).toContain(
      `nofile-typo: no export file matches ${typo.dir}/Umsaetze_*.csv; nearest names in ${typo.dir}: umsaetze-2026-11.csv.tmp`,
    );
    // One feed without a file is that feed's alone.
    expect(ran.stdout).toMatch(/nofile-healthy: .*umsaetze\.csv: enqueued \(new\)/);
  });

  it('enqueue: with source.allowNoFiles: true no file is normal (exit 0), and said', async () => {
    const fleet = world.start();
    const env = fleetProcessEnv(fleet.config, world.sandbox());
    const allowed = feedWithoutFile('nofile-allowed', 'umsaetze-*.csv', '\n  allowNoFiles: true');
    const ran = await cli.run(['enqueue', allowed.feedFile], env);
    expect(ran.code, ran.describe()).toBe(0);
    expect(ran.stdout).toContain(
      `nofile-allowed: no export file matches ${allowed.dir}/umsaetze-*.csv (allowed: source.allowNoFiles)`,
    );
  });

  it('a scheduled tick that finds no file fails its tick job naming the glob; with allowNoFiles it completes', async () => {
    const fleet = world.start();
    fleet.worker(1);
    const strict = feedWithoutFile('nofile-tick', 'umsaetze-*.csv');
    const lenient = feedWithoutFile('nofile-tick-ok', 'umsaetze-*.csv', '\n  allowNoFiles: true');
    const settled = async (job: Job) => {
      for (;;) {
        const state = await job.getState();
        if (state === 'failed' || state === 'completed')
          return { state, job: await fleet.queues.ticks.getJob(String(job.id)) };
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const failed = await settled(await fleet.queues.ticks.add('tick', { feedFile: strict.feedFile }));
    expect(failed.state).toBe('failed');
    expect(failed.job?.failedReason).toContain(
      `NO_EXPORT_FILE: no export file matches ${strict.dir}/umsaetze-*.csv`,
    );
    const completed = await settled(await fleet.queues.ticks.add('tick', { feedFile: lenient.feedFile }));
    expect(completed.state).toBe('completed');
  });
});
