import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadFeedFile } from '../../../src/config/load-feed.js';
import { enqueueFeed } from '../../../src/fleet/producer.js';
import { fleetTestWorld } from '../../support/fleet-harness.js';
import { transactionsExport } from '../../support/generated-exports.js';
import { captureLogs } from '../../support/log-capture.js';

const world = fleetTestWorld({ latency: { ms: 5, jitterMs: 0 } });

describe('issue 18 case 8: enqueue and symbolic links', () => {
  it('the producer warns about each export it leaves out (a link loop, a dangling link) and enqueues the rest', async () => {
    const fleet = world.start();
    const exp = transactionsExport({ rows: 5, name: 'producer-links', invalidRows: [], excludedRows: [] });
    // The feed takes every CSV of its folder, two of which are broken links.
    const yaml = readFileSync(exp.feedFile, 'utf8');
    writeFileSync(exp.feedFile, yaml.replace(/^ {2}path: .*$/m, '  path: "*.csv"'));
    symlinkSync(join(exp.dir, 'loop-b.csv'), join(exp.dir, 'loop-a.csv'));
    symlinkSync(join(exp.dir, 'loop-a.csv'), join(exp.dir, 'loop-b.csv'));
    symlinkSync(join(exp.dir, 'missing.csv'), join(exp.dir, 'gone.csv'));
    const logs = captureLogs();
    const results = await enqueueFeed(
      await loadFeedFile(exp.feedFile),
      {},
      {
        feedsDir: fleet.config.feedsDir,
        registry: fleet.registry,
        store: fleet.store,
        imports: fleet.queues.imports,
        logger: logs.logger,
        now: Date.now,
      },
    );
    expect(results.map((r) => [r.file, r.enqueued])).toEqual([[join(exp.dir, 'umsaetze.csv'), 'new']]);
    const warnings = logs
      .entries()
      .filter((e) => e.level === 'warn')
      .map((e) => `${String(e.path)}: ${String(e.msg)}`)
      .sort();
    expect(warnings).toEqual([
      `${join(exp.dir, 'gone.csv')}: export file left out: symbolic link to a missing file; not read`,
      `${join(exp.dir, 'loop-a.csv')}: export file left out: symbolic link loop (it leads back to itself); not read`,
      `${join(exp.dir, 'loop-b.csv')}: export file left out: symbolic link loop (it leads back to itself); not read`,
    ]);
  });
});
