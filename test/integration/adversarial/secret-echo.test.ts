import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createFaultInjector } from '../../../src/sandbox/faults.js';
import { DEFAULT_SEED, parseSeed } from '../../../src/sandbox/seed.js';
import { startSandbox } from '../../../src/sandbox/server.js';
import type { RunSummary } from '../../../src/sync/report/summary.js';
import { transactionsExport } from '../../support/generated-exports.js';
import { captureLogs } from '../../support/log-capture.js';
import { type HarnessRun, syncHarness } from '../../support/sync-harness.js';

/**
 * Issue 18, case 11: an authorization server (or the API) that echoes the request in its error
 * answer. A client secret with `+ / & =` and spaces goes out form-encoded (`%2B %2F %26 %3D +`), so
 * the echo carries it in a form the old raw-text redaction did not know. No form of any secret may
 * reach the logs, outcomes.csv, outcomes.ndjson or summary.json.
 */
const CLIENT_ID = 'sandbox-client';
const SECRET = 'Pa+ss/w&rd=42 with  spaces';

/** Every form in which a secret could be echoed back. */
function formsOf(secret: string): Record<string, string> {
  const url = encodeURIComponent(secret);
  const form = new URLSearchParams({ s: secret }).toString().slice(2);
  return {
    raw: secret,
    'URL-encoded (%20)': url,
    'form-encoded (+)': form,
    'URL-encoded, lower-case hex': url.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
    'form-encoded, lower-case hex': form.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
    'JSON-escaped': JSON.stringify(secret).slice(1, -1),
    'JSON-escaped form encoding': JSON.stringify(form).slice(1, -1),
    base64: Buffer.from(secret).toString('base64'),
    'base64 of HTTP Basic id:secret': Buffer.from(`${CLIENT_ID}:${secret}`).toString('base64'),
  };
}

/** The seed with the writing client's secret replaced. */
function seedWithSecret(secret: string) {
  const partners = (DEFAULT_SEED.partners ?? []).map((partner) => ({
    ...partner,
    clients: partner.clients.map((c) => (c.clientId === CLIENT_ID ? { ...c, clientSecret: secret } : c)),
  }));
  return parseSeed({ ...DEFAULT_SEED, partners }, '(secret-echo test)');
}

/** Everything a run left for people and machines to read. */
function everythingWritten(run: HarnessRun, logLines: readonly string[]): Record<string, string> {
  return {
    logs: logLines.join('\n'),
    'outcomes.csv': readFileSync(run.files.csv, 'utf8'),
    'outcomes.ndjson': readFileSync(run.files.ndjson, 'utf8'),
    'summary.json': readFileSync(run.files.summary, 'utf8'),
  };
}

function expectNoneOf(secrets: readonly string[], written: Record<string, string>): void {
  for (const secret of secrets) {
    for (const [formName, form] of Object.entries(formsOf(secret))) {
      for (const [where, text] of Object.entries(written)) {
        expect(text.includes(form), `${formName} of a secret in ${where}`).toBe(false);
      }
    }
  }
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function harness(faults: Parameters<typeof syncHarness>[0]) {
  const logs = captureLogs();
  const h = await syncHarness(faults, { logger: logs.logger, seed: seedWithSecret(SECRET) });
  close = h.close;
  return { h, logs };
}

describe('a server that echoes the request in its errors (issue 18, case 11)', () => {
  it.each([400, 500])(
    'token endpoint echoing the form body with %i: the run stops, and no form of the client secret is written anywhere',
    async (status) => {
      const { h, logs } = await harness({ echo: { on: ['token'], status } });
      const source = transactionsExport({ rows: 12, invalidRows: [], excludedRows: [] });

      const run = await h.run(source.feedFile);

      // The echo really happened and its text reached the report, scrubbed.
      expect(h.injector.injected()).toMatchObject({ echo: expect.any(Number) });
      const summary = JSON.parse(readFileSync(run.files.summary, 'utf8')) as RunSummary;
      expect(summary.stopReason?.code).toBe('AUTH_FAILED');
      expect(summary.stopReason?.message).toContain('client_id=sandbox-client&client_secret=[REDACTED]');
      expect(run.outcomes).toHaveLength(12);
      for (const outcome of run.outcomes) {
        expect(outcome.outcome).toBe('failed');
        expect(outcome.message).toContain('client_secret=[REDACTED]');
      }
      // A 500 is retried, then logged as an alert with the error (message, stack) in the log line.
      if (status === 500) expect(logs.lines.join('\n')).toContain('client_secret=[REDACTED]');
      expectNoneOf([SECRET], everythingWritten(run, logs.lines));
    },
  );

  it('bulk create echoing the Authorization header and body in its message and causes: no access token or secret in any form', async () => {
    const { h, logs } = await harness({ echo: { on: ['createTransactionsBulk'], status: 400 } });
    const source = transactionsExport({ rows: 6, invalidRows: [], excludedRows: [] });

    const run = await h.run(source.feedFile);

    const tokens = h.sandbox.runtime.tokens.issued();
    expect(tokens.length).toBeGreaterThan(0);
    // Every record was refused by the echoing 400, alone (the batch was split down to one record),
    // with the service's echo, scrubbed, as its message.
    expect(run.outcomes.filter((o) => o.outcome === 'rejected')).toHaveLength(6);
    for (const outcome of run.outcomes) {
      expect(outcome.message).toContain('authorization Bearer [REDACTED]');
      expect(outcome.message).toContain('received authorization Bearer [REDACTED]');
    }
    expectNoneOf([SECRET, ...tokens], everythingWritten(run, logs.lines));
  });
});

/** `erp-bridge sync` in a child process, as users run it: its output and its report folder. */
async function cliSync(feedFile: string, env: Record<string, string>, extra: string[] = []) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
  const reportDir = mkdtempSync(join(tmpdir(), 'erp-bridge-secret-echo-'));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli/main.ts', 'sync', feedFile, '--report-dir', reportDir, ...extra],
    {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (b: Buffer) => {
    output += b.toString();
  });
  child.stderr.on('data', (b: Buffer) => {
    output += b.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const [run] = readdirSync(reportDir).filter((entry) => !entry.startsWith('.'));
  const read = (name: string) => readFileSync(join(reportDir, run ?? '(no run)', name), 'utf8');
  return {
    code,
    written: {
      'stdout and stderr': output,
      'outcomes.csv': read('outcomes.csv'),
      'outcomes.ndjson': read('outcomes.ndjson'),
      'summary.json': read('summary.json'),
    },
  };
}

describe('erp-bridge sync against an echoing authorization server (issue 18, case 11)', () => {
  it.each([
    ['text', []],
    ['json', ['--log-format', 'json', '--log-level', 'debug']],
  ])('with %s logs: no form of the client secret in the output or the report', async (_format, extra) => {
    const sandbox = await startSandbox({
      seed: seedWithSecret(SECRET),
      faults: createFaultInjector({ echo: { on: ['token'], status: 400 } }),
    });
    close = () => sandbox.close();
    const source = transactionsExport({ rows: 5, invalidRows: [], excludedRows: [] });
    const ran = await cliSync(
      source.feedFile,
      {
        PARTNER_API_URL: sandbox.url,
        PARTNER_AUTH_URL: sandbox.authUrl,
        PARTNER_CLIENT_ID: CLIENT_ID,
        PARTNER_CLIENT_SECRET: SECRET,
      },
      extra,
    );
    expect(ran.code).not.toBe(0);
    expect(ran.written['summary.json']).toContain('client_secret=[REDACTED]');
    expect(ran.written['stdout and stderr']).toContain('client_secret=[REDACTED]');
    expectNoneOf([SECRET], ran.written);
  });
});
