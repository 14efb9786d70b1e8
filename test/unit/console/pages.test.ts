import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consolePlugin } from '../../../src/console/console-plugin.js';
import { ReportsConsoleSource } from '../../../src/console/reports-console-source.js';
import { rejected, reportsDir, runSummary } from '../../support/console-folders.js';

const TOKEN = 'tok_9f8e7d6c5b4a39281706f5e4d3c2b1a0';
const folders = reportsDir();
let app: FastifyInstance;

beforeAll(async () => {
  folders.run({
    runId: 'clean-1',
    feed: 'bank',
    accountId: 7,
    startedAt: '2026-11-01T02:00:00.000Z',
    counts: { created: 5 },
  });
  folders.run({
    runId: 'clean-2',
    feed: 'bank',
    accountId: 7,
    startedAt: '2026-11-02T02:00:00.000Z',
    counts: { created: 8 },
  });
  folders.run({
    runId: 'rejects-1',
    feed: 'invoices',
    accountId: 8,
    state: 'completed_with_errors',
    startedAt: '2026-11-02T03:00:00.000Z',
    counts: { created: 1, rejected: 60 },
    // A service URL with credentials and a token in its query: neither may reach a page.
    target: `https://partner:${TOKEN}@api.example.com/v1?access_token=${TOKEN}`,
    outcomes: [
      { file: 'a.csv', line: 1, externalId: 'ok-1', outcome: 'created', runId: 'x' },
      rejected(2, '<script>alert(1)</script>', 'name: <b>too long</b>'),
      ...Array.from({ length: 59 }, (_, i) => rejected(i + 3, `INV-${i + 3}`)),
      '{not json',
    ],
  });
  folders.run(
    {
      runId: 'failed-1',
      feed: 'plans',
      accountId: 9,
      state: 'failed',
      startedAt: '2026-11-02T01:00:00.000Z',
    },
    {
      ...runSummary({
        runId: 'failed-1',
        feed: 'plans',
        accountId: 9,
        state: 'failed',
        startedAt: '2026-11-02T01:00:00.000Z',
      }),
      clientSecret: TOKEN,
      initToken: TOKEN,
    },
  );
  folders.run({
    runId: 'statements-1',
    feed: 'camt',
    accountId: 10,
    startedAt: '2026-11-02T05:00:00.000Z',
    counts: { created: 2 },
    files: [
      {
        path: '/data/camt/2026-11.xml',
        sha256: 'cd',
        records: 2,
        statements: {
          count: 1,
          unbalanced: 1,
          warnings: [
            {
              code: 'STATEMENT_DOES_NOT_ADD_UP',
              line: 12,
              statement: 'S-1',
              message: 'statement S-1: opening + entries is not closing <by 1.00>',
            },
          ],
          balances: [],
        },
      },
    ],
  });
  folders.run(
    { runId: 'broken-json', feed: 'x', startedAt: '2026-11-02T01:00:00.000Z' },
    '{"runId": "broken',
  );
  folders.run(
    { runId: 'not-a-summary', feed: 'x', startedAt: '2026-11-02T01:00:00.000Z' },
    { runId: 'not-a-summary', state: 'weird' },
  );
  folders.unfinished('killed-1');
  folders.reconcile(
    'rec-1',
    {
      reconcileId: 'rec-1',
      feed: 'invoices',
      kind: 'invoices',
      accountId: 8,
      state: 'differences',
      startedAt: '2026-11-02T04:00:00.000Z',
      finishedAt: '2026-11-02T04:00:01.000Z',
      durationMs: 1000,
      files: ['/data/inv.csv'],
      counts: { equal: 3, missing: 1, different: 1, extra: 1, duplicate: 0, rejected: 0 },
      heldWithoutExternalId: 0,
      excluded: 0,
      controlTotals: { source: { records: 5, amount: '100.00' }, service: { records: 5, amount: '90.00' } },
      firstDifferences: [],
    },
    [
      { verdict: 'equal', externalId: 'E-1', file: '/data/inv.csv', line: 2 },
      { verdict: 'missing', externalId: 'M-1', file: '/data/inv.csv', line: 3, amount: '5.00' },
      {
        verdict: 'different',
        externalId: 'D-1',
        file: '/data/inv.csv',
        line: 4,
        fields: [{ field: 'amount', source: 10, service: 12.5 }],
      },
      { verdict: 'extra', externalId: 'X-1', serviceId: 44 },
    ],
  );
  app = Fastify();
  await app.register(consolePlugin(new ReportsConsoleSource(folders.dir), { pageSize: 25 }));
});

afterAll(async () => {
  await app.close();
  folders.remove();
});

const get = async (url: string) => {
  const res = await app.inject({ method: 'GET', url });
  return { status: res.statusCode, body: res.body, headers: res.headers };
};
/** The feeds of the overview's main table, in page order. */
const feedOrder = (body: string) =>
  [...(body.split('</table>')[0] ?? '').matchAll(/href="\/console\/feeds\/([^"]+)"/g)].map((m) => m[1]);

describe('console pages from report folders', () => {
  it('overview: tenants x feeds with their last run, worst first, damaged folders listed', async () => {
    const page = await get('/console');
    expect(page.status).toBe(200);
    expect(feedOrder(page.body)).toEqual(['plans', 'invoices', 'camt', 'bank']);
    expect(page.body).toContain('<th scope="col"');
    expect(page.body).toContain('href="#main"');
    // The last of bank's two runs, with its count of runs.
    expect(page.body).toContain('/console/runs/clean-2');
    expect(page.body).not.toContain('/console/runs/clean-1');
    for (const id of ['broken-json', 'not-a-summary', 'killed-1']) expect(page.body).toContain(id);
    expect(page.body).toContain('summary.json is not JSON');
    expect(page.body).toContain('no summary.json');
    expect(page.body).toContain('/console/reconciles/rec-1');
    // Report folders know nothing of freshness: no column claiming a feed is unwatched.
    expect(page.body).not.toContain('Freshness');
  });

  it('overview: sorted and filtered by the query string, bad values fall back', async () => {
    expect(feedOrder((await get('/console?sort=feed&dir=asc')).body)).toEqual([
      'bank',
      'camt',
      'invoices',
      'plans',
    ]);
    expect(feedOrder((await get('/console?sort=rejected&dir=desc')).body)[0]).toBe('invoices');
    expect(feedOrder((await get('/console?q=inv')).body)).toEqual(['invoices']);
    expect(feedOrder((await get('/console?state=failed')).body)).toEqual(['plans']);
    const odd = await get('/console?sort=%3Cx%3E&page=-1&q[]=1');
    expect(odd.status).toBe(200);
    expect(feedOrder(odd.body)).toEqual(['plans', 'invoices', 'camt', 'bank']);
  });

  it('run: counts, totals, rejected records escaped and paged, search, CSV link', async () => {
    const page = await get('/console/runs/rejects-1');
    expect(page.status).toBe(200);
    expect(page.body).toContain('60 records');
    expect(page.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.body).not.toContain('<script>');
    expect(page.body).toContain('name: &lt;b&gt;too long&lt;/b&gt;');
    expect(page.body).toContain('1 unreadable lines skipped');
    expect(page.body).toContain('Page 1 of 3');
    expect(page.body).toContain('href="/console/runs/rejects-1?page=2"');
    expect(page.body).toContain('href="/console/runs/rejects-1/records.csv"');
    const third = await get('/console/runs/rejects-1?page=3');
    expect(third.body).toContain('INV-61');
    expect(third.body).not.toContain('INV-10<');
    const search = await get('/console/runs/rejects-1?q=inv-42');
    expect(search.body).toContain('1 record matching');
    expect(search.body).toContain('INV-42');
    expect(search.body).toContain('href="/console/runs/rejects-1/records.csv?q=inv-42"');
  });

  it('run: statement warnings of its files', async () => {
    const page = await get('/console/runs/statements-1');
    expect(page.body).toContain('Statement warnings');
    expect(page.body).toContain('STATEMENT_DOES_NOT_ADD_UP');
    expect(page.body).toContain('not closing &lt;by 1.00&gt;');
    expect(page.body).toContain('1 (1 not adding up)');
    expect((await get('/console/runs/clean-1')).body).not.toContain('Statement warnings');
  });

  it('run: the CSV download holds every matching record, formulas defused', async () => {
    const csv = await get('/console/runs/rejects-1/records.csv');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toContain('rejects-1-records.csv');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('file,line,key,externalId,outcome,code,message,amount');
    expect(lines).toHaveLength(61);
    expect((await get('/console/runs/rejects-1/records.csv?q=INV-5')).body.trim().split('\r\n')).toHaveLength(
      12,
    );
  });

  it("never shows a token: not the target URL's credentials or query, not fields the console does not read", async () => {
    for (const url of [
      '/console',
      '/console/runs/rejects-1',
      '/console/runs/failed-1',
      '/console/feeds/invoices',
      '/console/runs/rejects-1/records.csv',
    ]) {
      const page = await get(url);
      expect(page.body).not.toContain(TOKEN);
    }
    expect((await get('/console/runs/rejects-1')).body).toContain('https://api.example.com/v1');
  });

  it('a damaged or unknown run is a page saying so, never a crash; ids are one path segment', async () => {
    const damaged = await get('/console/runs/not-a-summary');
    expect(damaged.status).toBe(200);
    expect(damaged.body).toContain('cannot be read');
    expect((await get('/console/runs/nope')).status).toBe(404);
    expect((await get('/console/runs/..%2F..%2Fetc')).status).toBe(404);
    expect((await get('/console/runs/.hidden')).status).toBe(404);
  });

  it('feed history: an inline SVG chart and a table with the same runs', async () => {
    const page = await get('/console/feeds/bank');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<svg');
    expect(page.body).toMatch(/<path d="M[\d. ]+L[\d. ]+"/);
    expect(page.body).toContain('/console/runs/clean-1');
    expect(page.body).toContain('/console/runs/clean-2');
    expect(page.body).not.toContain('style=');
    expect((await get('/console/feeds/none')).body).toContain('No run of this feed');
  });

  it('reconcile: verdict counts, totals, missing / different with both values / extra, not the equal ones', async () => {
    const page = await get('/console/reconciles/rec-1');
    expect(page.status).toBe(200);
    for (const text of ['M-1', 'D-1', 'X-1', '100.00', '90.00', 'export <q>10</q>, service <q>12.5</q>'])
      expect(page.body).toContain(text);
    expect(page.body).not.toContain('E-1');
    expect((await get('/console/reconciles/clean-1')).status).toBe(404);
  });

  it('the stylesheet is served by the console, with the security headers on every answer', async () => {
    const css = await get('/console/style.css');
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toContain('text/css');
    expect(css.body).toContain(':focus-visible');
    for (const url of ['/console', '/console/style.css', '/console/runs/nope']) {
      const { headers } = await get(url);
      expect(headers['cache-control']).toBe('no-store');
      expect(headers['content-security-policy']).toContain("default-src 'none'");
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['referrer-policy']).toBe('no-referrer');
    }
  });

  it('read-only: other methods are 405', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH'] as const) {
      const res = await app.inject({ method, url: '/console/runs/rejects-1' });
      expect(res.statusCode).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD');
    }
    expect((await app.inject({ method: 'HEAD', url: '/console' })).statusCode).toBe(200);
  });
});

describe('a damaged summary, whichever kind the URL asks for', () => {
  const damaged = reportsDir();
  const server = Fastify();
  beforeAll(async () => {
    damaged.reconcile('rec-old', { reconcileId: 'rec-old', state: 'weird' }, []);
    damaged.run({ runId: 'run-old', feed: 'x', startedAt: '2026-11-02T01:00:00.000Z' }, { runId: 'run-old' });
    await server.register(consolePlugin(new ReportsConsoleSource(damaged.dir)));
  });
  afterAll(async () => {
    await server.close();
    damaged.remove();
  });
  const status = async (url: string) => (await server.inject({ method: 'GET', url })).statusCode;

  it('is a page naming the problem; its records download is a 404, never a crash', async () => {
    const reconcile = await server.inject({ method: 'GET', url: '/console/reconciles/rec-old' });
    expect(reconcile.statusCode).toBe(200);
    expect(reconcile.body).toContain('summary.json is not a reconcile summary: ');
    expect(reconcile.body).toContain('Reconcile');
    const run = await server.inject({ method: 'GET', url: '/console/runs/run-old' });
    expect(run.statusCode).toBe(200);
    expect(run.body).toContain('summary.json is not a run summary: ');
    expect(await status('/console/runs/run-old/records.csv')).toBe(404);
    expect(await status('/console/runs/rec-old/records.csv')).toBe(404);
    expect(await status('/console/reconciles/..%2Frec-old')).toBe(404);
  });
});
