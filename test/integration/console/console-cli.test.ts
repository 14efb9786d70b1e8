import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runNode } from '../../support/cli-run.js';
import { reportsDir } from '../../support/console-folders.js';

/** The built CLI (npm run build), as users run it. */
const main = join(repoRoot, 'dist/src/cli/main.js');
const folders = reportsDir();
const TOKEN = 'console-test-token-0123456789';
const children: ChildProcess[] = [];

/** `erp-bridge console` on port 0 over the temp folder; its URL from its one stdout line. */
async function startConsole(args: readonly string[], env: Record<string, string> = {}): Promise<string> {
  const child = spawn(process.execPath, [main, 'console', '--reports', folders.dir, '--port', '0', ...args], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const first = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next();
  return (JSON.parse(String(first.value)) as { url: string }).url;
}

/** A raw request, so that the Host header is ours to set. */
function call(url: string, options: { method?: string; headers?: Record<string, string> } = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const req = request(url, { method: options.method ?? 'GET', headers: options.headers ?? {} }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    },
  );
}

beforeAll(async () => {
  // A real run's folder: a demo feed synced into the embedded sandbox by the built CLI.
  const synced = await runNode(
    [main, 'sync', '--sandbox', '--report-dir', folders.dir, 'config/feeds/demo/acme-bank.yaml'],
    {},
  );
  expect(synced.code).toBe(0);
  // And one with a rejected row (a date of 31 February): exit 1.
  const rejects = await runNode(
    [main, 'sync', '--sandbox', '--report-dir', folders.dir, 'config/feeds/demo/rejects/acme-bank.yaml'],
    {},
  );
  expect(rejects.code).toBe(1);
});

afterAll(() => {
  for (const child of children) child.kill('SIGTERM');
  folders.remove();
});

describe('erp-bridge console (built CLI)', () => {
  it('serves the overview and a real run over loopback, with the security headers', async () => {
    const url = await startConsole([]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/console$/);
    const overview = await call(url);
    expect(overview.status).toBe(200);
    expect(overview.body).toContain('demo-acme-bank');
    expect(overview.headers['cache-control']).toBe('no-store');
    expect(overview.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    );
    expect(overview.headers['x-content-type-options']).toBe('nosniff');
    expect(overview.headers['referrer-policy']).toBe('no-referrer');
    const runId = /href="\/console\/runs\/(demo-acme-bank-[^"]+)"/.exec(overview.body)?.[1];
    const run = await call(`${url}/runs/${runId}`);
    expect(run.status).toBe(200);
    expect(run.body).toContain('umsaetze-2026-02.csv');
    expect(run.body).toContain('-13381.98');
    expect((await call(`${url}/feeds/demo-acme-bank`)).body).toContain('<svg');
    // Worst first: the run with the rejected row leads, and its page lists the row and why.
    const worst = /href="\/console\/runs\/([^"]+)"/.exec(overview.body)?.[1];
    expect(worst).toMatch(/^demo-rejects-acme-bank-/);
    const rejectedRun = await call(`${url}/runs/${worst}`);
    expect(rejectedRun.body).toContain('ACME-2026-0007');
    expect(rejectedRun.body).toContain('&quot;31.02.2026&quot; is not a calendar date');
    const csv = await call(`${url}/runs/${worst}/records.csv`);
    expect(csv.body).toContain('ACME-2026-0007');
    expect((await call(`${url}/style.css`)).status).toBe(200);

    const posted = await call(url, { method: 'POST' });
    expect(posted.status).toBe(405);
    expect(posted.headers['cache-control']).toBe('no-store');
    const rebound = await call(url, { headers: { host: 'evil.example:80' } });
    expect(rebound.status).toBe(421);
    expect(rebound.body).not.toContain('demo-acme-bank');
  });

  it("shows each feed's open alerts from the .feed-health.json sync keeps beside the folders", async () => {
    const health = join(folders.dir, '.feed-health.json');
    // As `erp-bridge sync` (not --sandbox) writes it when a run's rejected share is over the limit.
    writeFileSync(
      health,
      JSON.stringify({ 'demo-rejects-acme-bank': { failing: 'rejected-share', dropped: false, recent: [] } }),
    );
    const url = await startConsole([]);
    const overview = (await call(url)).body;
    expect(overview).toContain('<th scope="col">Open alerts</th>');
    const rowOf = (feed: string) => overview.split('<tr>').find((row) => row.includes(`>${feed}</a>`)) ?? '';
    expect(rowOf('demo-rejects-acme-bank')).toContain('<span class="alert">many rows rejected</span>');
    expect(rowOf('demo-acme-bank')).toContain('<span class="muted">none</span>');
    // A file that is not one: every row says "unknown" (never "none"), and why is listed.
    writeFileSync(health, '{"demo-acme-bank": ');
    const unreadable = (await call(url)).body;
    expect(unreadable).toContain('<span class="muted">unknown</span>');
    expect(unreadable).not.toContain('<span class="muted">none</span>');
    expect(unreadable).toContain('.feed-health.json is not JSON (truncated or edited?)');
    rmSync(health);
  });

  it('refuses to listen beyond loopback without credentials (exit 2, before listening)', async () => {
    const ran = await runNode(
      [main, 'console', '--reports', folders.dir, '--port', '0', '--host', '0.0.0.0'],
      {},
    );
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('(beyond loopback) without credentials');
    expect(ran.stdout).toBe('');
  });

  it('beyond loopback with the admin token: every page asks for it', async () => {
    const url = await startConsole(['--host', '0.0.0.0'], { ERP_BRIDGE_ADMIN_TOKEN: TOKEN });
    const local = url.replace('0.0.0.0', '127.0.0.1');
    const anonymous = await call(local);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['www-authenticate']).toContain('Basic');
    const opened = await call(local, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(opened.status).toBe(200);
    expect(opened.body).not.toContain(TOKEN);
    expect((await call(local, { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(
      401,
    );
  });

  it('a missing reports folder is a settings error', async () => {
    const ran = await runNode([main, 'console', '--reports', join(folders.dir, 'nope'), '--port', '0'], {});
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('no such folder');
  });
});
