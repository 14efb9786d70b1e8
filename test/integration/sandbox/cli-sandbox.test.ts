import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const dir = mkdtempSync(join(tmpdir(), 'erp-bridge-cli-sandbox-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Printed {
  url: string;
  authUrl: string;
  clientId: string;
  clientSecret: string;
  appUrl: string;
  demoUrl: string;
}

interface Started {
  child: ChildProcess;
  printed: Printed;
  stdout: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** Runs `erp-bridge sandbox ...` from source (tsx) and resolves with its first stdout line, parsed. */
function run(args: string[]): Omit<Started, 'printed'> & { ready: Promise<Started> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'sandbox', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>(
    (resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stderr })),
  );
  const stdoutText = () => stdout;
  let printed: Printed | undefined;
  const ready = new Promise<Started>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const newline = stdout.indexOf('\n');
      if (newline >= 0 && printed === undefined) {
        printed = JSON.parse(stdout.slice(0, newline)) as Printed;
        resolve({ child, printed, stdout: stdoutText, exited });
      }
    });
    exited.then(({ code }) => reject(new Error(`sandbox exited with ${code} before printing: ${stderr}`)));
  });
  return { child, stdout: stdoutText, exited, ready };
}

async function token(authUrl: string, clientId: string, clientSecret: string): Promise<string> {
  const res = await fetch(`${authUrl}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

describe('erp-bridge sandbox', () => {
  it('prints exactly one JSON line with url, authUrl and credentials that work, and exits on SIGTERM', async () => {
    const started = await run(['--port', '0']).ready;
    const { url, authUrl, clientId, clientSecret } = started.printed;
    expect(Object.keys(started.printed).sort()).toEqual([
      'appUrl',
      'authUrl',
      'clientId',
      'clientSecret',
      'demoUrl',
      'url',
    ]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v2$/);
    expect(url).toBe(`${authUrl}/v2`);

    const access = await token(authUrl, clientId, clientSecret);
    const res = await fetch(`${url}/authentication/verify-auth`, {
      headers: { authorization: `Bearer ${access}`, 'x-account-id': '1001' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true, name: 'Demo Partner' });

    started.child.kill('SIGTERM');
    const exit = await started.exited;
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(started.stdout().trim().split('\n')).toHaveLength(1);
  });

  it('serves the embedded app and a demo parent page on two more origins, the demo allow-listed', async () => {
    const started = await run(['--port', '0', '--allow-parent', 'https://portal.example']).ready;
    try {
      const { appUrl, demoUrl, authUrl } = started.printed;
      const origins = [authUrl, new URL(appUrl).origin, new URL(demoUrl).origin];
      expect(new Set(origins).size).toBe(3);
      const app = await fetch(appUrl);
      expect(app.status).toBe(200);
      expect(app.headers.get('content-security-policy')).toContain(
        `frame-ancestors https://portal.example ${new URL(demoUrl).origin}`,
      );
      const demo = await fetch(demoUrl);
      expect(await demo.text()).toContain('id="embed-config"');
      expect(demo.headers.get('content-security-policy')).toContain(`frame-src ${new URL(appUrl).origin}`);
      const minted = await fetch(new URL('/init-token', demoUrl), { method: 'POST' });
      expect(minted.status).toBe(200);
      expect(minted.headers.get('cache-control')).toBe('no-store');
      const { initToken } = (await minted.json()) as { initToken: string };
      const exchange = await fetch(new URL('/exchange', appUrl), {
        method: 'POST',
        headers: { origin: new URL(appUrl).origin, 'content-type': 'application/json' },
        body: JSON.stringify({ initToken }),
      });
      expect(await exchange.json()).toMatchObject({ type: 'service:auth-success', accountId: 1001 });
    } finally {
      started.child.kill('SIGTERM');
      const exit = await started.exited;
      expect(exit.code).toBe(0);
      // The demo's logs (stderr) say what was minted and exchanged, never the token.
      expect(exit.stderr).toContain('init token minted');
      expect(exit.stderr).toContain('embedded sign-in');
      expect(exit.stderr).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
    }
  });

  it('loads --seed and --faults files (YAML or JSON); --latency overrides the file', async () => {
    const seed = join(dir, 'seed.yaml');
    writeFileSync(
      seed,
      [
        'partners:',
        '  - id: acme-partner',
        '    name: Acme Integrations',
        '    clients: [{ clientId: acme, clientSecret: acme-secret, scopes: ["api:read", "api:write"] }]',
        'accounts:',
        '  - { id: 501, externalId: acme-1, partnerId: acme-partner, companyName: Acme GmbH }',
      ].join('\n'),
    );
    const faults = join(dir, 'faults.json');
    writeFileSync(
      faults,
      JSON.stringify({ latency: { ms: 500 }, script: [{ op: 'verifyAuth', fault: '500' }] }),
    );

    const started = await run(['--port', '0', '--seed', seed, '--faults', faults, '--latency', '5,2']).ready;
    try {
      const { url, authUrl, clientId, clientSecret } = started.printed;
      expect(clientId).toBe('acme');
      const access = await token(authUrl, clientId, clientSecret);
      const verify = () =>
        fetch(`${url}/authentication/verify-auth`, {
          headers: { authorization: `Bearer ${access}`, 'x-account-id': '501' },
        });
      expect((await verify()).status).toBe(500);
      expect((await verify()).status).toBe(200);
      const config = (await (await fetch(`${authUrl}/_sandbox/faults`)).json()) as Record<string, unknown>;
      expect(config.latency).toEqual({ ms: 5, jitterMs: 2 });
    } finally {
      started.child.kill('SIGINT');
      expect((await started.exited).code).toBe(0);
    }
  });

  it.each([
    ['a missing seed file', ['--seed', '/no/such/seed.yaml'], /cannot read seed file \/no\/such\/seed\.yaml/],
    [
      'an invalid fault config',
      ['--faults', 'BAD_FAULTS'],
      /invalid fault config .*bad-faults\.yaml:\n\s+fail500\.rate/,
    ],
    ['an invalid seed', ['--seed', 'BAD_SEED'], /invalid sandbox seed .*bad-seed\.yaml:\n\s+partners/],
    [
      'an --allow-parent that is not an origin',
      ['--allow-parent', 'https://portal.example/embed'],
      /allowed parent "https:\/\/portal\.example\/embed" is not an origin/,
    ],
  ])('refuses %s with exit code 2 and a message naming the file or value', async (_name, args, message) => {
    writeFileSync(join(dir, 'bad-faults.yaml'), 'fail500:\n  rate: 3\n');
    writeFileSync(join(dir, 'bad-seed.yaml'), 'partners: []\naccounts: []\n');
    const resolved = args.map((a) =>
      a === 'BAD_FAULTS' ? join(dir, 'bad-faults.yaml') : a === 'BAD_SEED' ? join(dir, 'bad-seed.yaml') : a,
    );
    const started = run(['--port', '0', ...resolved]);
    started.ready.catch(() => undefined);
    const exit = await started.exited;
    expect(exit.code).toBe(2);
    expect(exit.stderr).toMatch(message);
    expect(started.stdout()).toBe('');
  });
});
