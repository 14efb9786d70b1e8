import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { consolePlugin } from '../../src/console/console-plugin.js';
import { ReportsConsoleSource } from '../../src/console/reports-console-source.js';
import { runSummary } from '../support/console-folders.js';
import { alternate, timed, urlOf } from './page-timing.js';

/**
 * The console over report folders (`erp-bridge console --reports`): `folders` run folders of 1,000
 * tenants x 3 feeds as `erp-bridge sync` leaves them (summary.json with its 20 first errors), the
 * overview's first page (every summary read) and then pages alternated with the libraries alone:
 * fastify listing the folder (the least a page that sees new folders must do), and listing it
 * with every summary.json read and parsed (what a page without the console's cache does).
 */
export async function benchReportFolders(folders: number, rounds: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-console-folders-'));
  try {
    const t0 = performance.now();
    for (let i = 0; i < folders; i++) {
      const tenant = 1 + (i % 1_000);
      const feed = `t${tenant}-${['bank', 'invoices', 'plans'][i % 3]}`;
      const day = 1 + Math.floor(i / 3_000);
      const runId = `${feed}-202611${String(day).padStart(2, '0')}T010000Z-${String(i).padStart(6, '0')}`;
      mkdirSync(join(dir, runId));
      const summary = runSummary({
        runId,
        feed,
        accountId: tenant,
        startedAt: `2026-11-${String(day).padStart(2, '0')}T01:00:00.000Z`,
        counts: { created: 975, rejected: 25 },
      });
      const firstErrors = Array.from({ length: 20 }, (_, k) => ({
        file: 'umsaetze.csv',
        line: k + 2,
        externalId: `X-${k}`,
        outcome: 'rejected',
        code: 'INVALID_RECORD',
        message: 'bookingDate (column "Buchungsdatum"): "31.02.2026" is not a calendar date',
      }));
      writeFileSync(join(dir, runId, 'summary.json'), JSON.stringify({ ...summary, firstErrors }, null, 2));
    }
    console.log(`\nreport folders: ${folders} written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const ours = Fastify();
    await ours.register(consolePlugin(new ReportsConsoleSource(dir)));
    await ours.listen({ host: '127.0.0.1', port: 0 });
    const listing = Fastify();
    listing.get('/list', async () => (await readdir(dir, { withFileTypes: true })).length);
    // 32 files at a time, as the console reads them.
    listing.get('/read', async () => {
      const names = (await readdir(dir, { withFileTypes: true })).map((entry) => entry.name);
      for (let i = 0; i < names.length; i += 32)
        await Promise.all(
          names
            .slice(i, i + 32)
            .map(
              async (name) => JSON.parse(await readFile(join(dir, name, 'summary.json'), 'utf8')) as unknown,
            ),
        );
      return names.length;
    });
    await listing.listen({ host: '127.0.0.1', port: 0 });
    const first = await timed(`${urlOf(ours)}/console`);
    const readAll = await timed(`${urlOf(listing)}/read`);
    console.log(
      `first overview page (every summary read): ${first.firstByteMs.toFixed(0)} ms to its first byte; reading and parsing every summary.json alone: ${readAll.firstByteMs.toFixed(0)} ms`,
    );
    await alternate(
      [
        ['overview, later pages', `${urlOf(ours)}/console`],
        ['overview, by tenant, page 15', `${urlOf(ours)}/console?sort=tenant&dir=asc&page=15`],
      ],
      `${urlOf(listing)}/list`,
      rounds,
    );
    await ours.close();
    await listing.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
