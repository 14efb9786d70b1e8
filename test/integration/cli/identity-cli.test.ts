import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../../src/sandbox/server.js';

/** `erp-bridge sync` and a changed identity: exit 2 naming the change, `--accept-new-identity` goes on. */
const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const work = mkdtempSync(join(tmpdir(), 'erp-bridge-identity-cli-'));
const reportDir = join(work, 'reports');
let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
  rmSync(work, { recursive: true, force: true });
});

function feed(dirName: string, purpose: string): string {
  const dir = join(work, dirName);
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'export.csv'),
    'Datum;Betrag;Text;Zweck\n2026-01-05;-3,00;KARTE;Kantine\n2026-01-06;-4,00;KARTE;Kiosk\n',
  );
  const path = join(dir, 'feed.yaml');
  writeFileSync(
    path,
    `name: identity-cli
accountId: 1001
kind: transactions
source: { path: "*.csv", format: csv, delimiter: ";", decimalSeparator: "," }
mapping: { bookingDate: Datum, amount: Betrag, purpose: ${purpose} }
bankAccount: { externalId: identity-cli, accountName: CLI, bankName: Testbank }
`,
  );
  return path;
}

function sync(args: string[]): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli/main.ts', 'sync', ...args, '--report-dir', reportDir, '--no-progress'],
    {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        PARTNER_API_URL: sandbox.url,
        PARTNER_AUTH_URL: sandbox.authUrl,
        PARTNER_CLIENT_ID: 'sandbox-client',
        PARTNER_CLIENT_SECRET: 'sandbox-secret',
      },
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  let stdout = '';
  child.stdout.on('data', (b: Buffer) => {
    stdout += b.toString();
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout })));
}

describe('erp-bridge sync --accept-new-identity', () => {
  it('stops a run whose identity settings changed (exit 2) until the change is accepted', async () => {
    expect((await sync([feed('a', '{ columns: [Text, Zweck] }')])).code).toBe(0);
    const changed = feed('b', 'Zweck');
    const stopped = await sync([changed]);
    expect(stopped.code).toBe(2);
    expect(stopped.stdout).toContain('purpose: columns ["Text", "Zweck"] -> column "Zweck"');
    expect(stopped.stdout).toContain('2 record(s)');
    expect(stopped.stdout).toContain('0 created');
    const accepted = await sync([changed, '--accept-new-identity']);
    expect(accepted.code).toBe(0);
    expect(accepted.stdout).toContain('2 created');
  });
});
