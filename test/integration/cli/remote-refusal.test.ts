import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunSummary } from '../../../src/sync/report/summary.js';
import { type CliRun, cliSandboxPerFile, runCli } from '../../support/cli-run.js';
import { testRedis } from '../../support/redis.js';
import { S3RVER_CREDENTIALS, type S3TestServer, startS3Server } from '../../support/s3-server.js';
import { type SshdServer, sshdMissing, startSshdServer } from '../../support/sshd-server.js';

/**
 * A feed whose export location refuses (a pinned host key that does not match, a refused login, a
 * secret variable not set, S3 credentials refused) stops that feed alone: its summary and report
 * like any stopped run, exit 3 (2 for the unset variable), and the other feeds of the same command
 * run as if it were not there (they share the service's client, which must stay open for them).
 */
const ACCOUNT = 1001;
const KEY_ENV = 'ERP_BRIDGE_TEST_SFTP_KEY';
const PASSWORD_ENV = 'ERP_BRIDGE_TEST_SFTP_PASSWORD';
const { work, sandbox, env } = cliSandboxPerFile('remote-refusal');
const redis = testRedis();
afterAll(() => redis.cleanup());

function csvExport(tag: string, rows: number): string {
  const lines = ['Buchungstag;Betrag;Verwendungszweck;Referenz'];
  for (let i = 1; i <= rows; i++)
    lines.push(`0${(i % 9) + 1}.03.2024;-${i},50;Rechnung ${tag}-${i};${tag}-${i}`);
  return `${lines.join('\r\n')}\r\n`;
}

/** A transactions feed of `path`; `location` is the flow-style YAML of source.location (absent: disk). */
function feedFile(name: string, path: string, location?: string, bankAccount = name): string {
  const dir = mkdtempSync(join(work, `${name}-`));
  const feed = [
    `name: ${name}`,
    `accountId: ${ACCOUNT}`,
    'kind: transactions',
    `source: {path: ${JSON.stringify(path)}, format: csv, delimiter: ";", decimalSeparator: ",", dateFormat: dd.MM.yyyy, arrival: immediate${location ? `, location: ${location}` : ''}}`,
    `bankAccount: {externalId: ${bankAccount}, accountName: ${bankAccount}, bankName: Bank}`,
    'mapping: {externalId: Referenz, amount: Betrag, bookingDate: Buchungstag, valueDate: Buchungstag, purpose: Verwendungszweck}',
  ].join('\n');
  writeFileSync(join(dir, 'feed.yaml'), `${feed}\n`);
  return join(dir, 'feed.yaml');
}

/** A healthy feed on the local disk: enough records for several chunks, so it is still sending when the refusal comes. */
function healthyFeed(tag: string, rows = 2500): string {
  const dir = mkdtempSync(join(work, `healthy-${tag}-`));
  writeFileSync(join(dir, 'bank.csv'), csvExport(tag, rows));
  // One bank account for all: the sandbox's subscription has few slots.
  return feedFile(`healthy-${tag.toLowerCase()}`, join(dir, 'bank.csv'), undefined, 'healthy');
}

interface Synced extends CliRun {
  reportDir: string;
}

async function cli(
  command: 'sync' | 'reconcile',
  feeds: string[],
  extra: Record<string, string> = {},
): Promise<Synced> {
  const reportDir = mkdtempSync(join(work, 'reports-'));
  const ran = await runCli([command, ...feeds, '--report-dir', reportDir], env(extra));
  return { ...ran, reportDir };
}

/** Each run folder's summary by feed; also that no report file was left half-written (`.part`). */
function reports(reportDir: string): Record<string, RunSummary> {
  const byFeed: Record<string, RunSummary> = {};
  for (const run of readdirSync(reportDir).filter((entry) => !entry.startsWith('.'))) {
    const files = readdirSync(join(reportDir, run));
    expect(files.filter((f) => f.endsWith('.part'))).toEqual([]);
    const summary = JSON.parse(readFileSync(join(reportDir, run, 'summary.json'), 'utf8')) as RunSummary;
    byFeed[summary.feed] = summary;
  }
  return byFeed;
}

const created = (tag: string) =>
  [...(sandbox().runtime.state.accounts.get(ACCOUNT)?.transactions.values() ?? [])]
    .flatMap((m) => [...m.values()])
    .filter((t) => t.externalId?.startsWith(`${tag}-`)).length;

function expectRefused(ran: Synced, feed: string, code: string, exitCode: number): RunSummary {
  expect(`${ran.stdout}${ran.stderr}`).not.toContain('unexpected error');
  const summary = reports(ran.reportDir)[feed];
  expect(summary?.state).toBe('stopped');
  expect(summary?.stopReason).toMatchObject({ code, exitCode });
  expect(ran.stdout).toContain(`${feed}: stopped`);
  expect(ran.stdout).toContain(code === 'SECRET_MISSING' ? PASSWORD_ENV : '');
  return summary as RunSummary;
}

function expectHealthy(ran: Synced, tag: string, rows = 2500): void {
  const summary = reports(ran.reportDir)[`healthy-${tag.toLowerCase()}`];
  expect(summary?.counts).toMatchObject({ created: rows, failed: 0, rejected: 0 });
  expect(summary?.stopReason).toBeUndefined();
  expect(created(tag)).toBe(rows);
  expect(ran.stderr).not.toContain('The client is destroyed');
}

const skipSftp = sshdMissing();

describe.skipIf(skipSftp !== undefined)('a refusing SFTP location in a sync of several feeds', () => {
  let server: SshdServer;
  let keyed: string;
  beforeAll(async () => {
    server = await startSshdServer({ passwords: true });
    keyed = `{type: sftp, host: ${server.host}, port: ${server.port}, user: ${server.user}, privateKeyEnv: ${KEY_ENV}, hostKey: "${server.hostKey}"}`;
    mkdirSync(join(server.root, 'in'), { recursive: true });
    writeFileSync(join(server.root, 'in', 'bank-1.csv'), csvExport('R', 2));
  });
  afterAll(() => server?.stop());

  it('a host key that does not match the pin: that feed stops (exit 3) with its report; the other feed syncs every record', async () => {
    const wrongKey = keyed.replace(server.hostKey, `SHA256:${'A'.repeat(43)}`);
    const refused = feedFile('sftp-wrong-key', `${server.root}/in/*.csv`, wrongKey);
    const ran = await cli('sync', [refused, healthyFeed('H1')], { [KEY_ENV]: server.privateKey });
    expect(ran.code).toBe(3);
    const summary = expectRefused(ran, 'sftp-wrong-key', 'HOST_KEY_MISMATCH', 3);
    expect(summary.stopReason?.message).toContain(server.hostKey);
    expect(existsSync(join(ran.reportDir, summary.runId, 'outcomes.csv'))).toBe(true);
    expectHealthy(ran, 'H1');
  });

  it('a refused password stops its feed (exit 3); a password variable not set stops its feed (exit 2); the other feed syncs', async () => {
    const withPassword = `{type: sftp, host: ${server.host}, port: ${server.port}, user: ${server.user}, passwordEnv: ${PASSWORD_ENV}, hostKey: "${server.hostKey}"}`;
    const refused = feedFile('sftp-wrong-password', `${server.root}/in/*.csv`, withPassword);
    const wrong = await cli('sync', [refused, healthyFeed('H2')], { [PASSWORD_ENV]: 'not-the-password' });
    expect(wrong.code).toBe(3);
    expectRefused(wrong, 'sftp-wrong-password', 'AUTH_FAILED', 3);
    expect(`${wrong.stdout}${wrong.stderr}`).not.toContain('not-the-password');
    expectHealthy(wrong, 'H2');

    const unset = await cli('sync', [refused, healthyFeed('H3', 30)]);
    expect(unset.code).toBe(2);
    expectRefused(unset, 'sftp-wrong-password', 'SECRET_MISSING', 2);
    expectHealthy(unset, 'H3', 30);
  });

  it('enqueue: the refused feed is named and not enqueued (exit 3), the other feed is enqueued', async () => {
    const wrongKey = keyed.replace(server.hostKey, `SHA256:${'C'.repeat(43)}`);
    // The fleet reads feeds from its feed directory: both feed files in one.
    const feedsDir = mkdtempSync(join(work, 'fleet-feeds-'));
    const inFeeds = (file: string) => {
      const to = join(feedsDir, `${basename(dirname(file))}.yaml`);
      copyFileSync(file, to);
      return to;
    };
    const refused = inFeeds(feedFile('sftp-enqueue-refused', `${server.root}/in/*.csv`, wrongKey));
    const healthy = inFeeds(healthyFeed('H6', 5));
    const ran = await runCli(['enqueue', refused, healthy], {
      REDIS_URL: redis.url,
      ERP_BRIDGE_QUEUE_PREFIX: redis.newPrefix(),
      ERP_BRIDGE_FEEDS_DIR: feedsDir,
      [KEY_ENV]: server.privateKey,
    });
    expect(`${ran.stdout}${ran.stderr}`).not.toContain('unexpected error');
    expect(ran.code).toBe(3);
    expect(ran.stderr).toContain('sftp-enqueue-refused: not enqueued:');
    expect(ran.stderr).toContain('(HOST_KEY_MISMATCH)');
    expect(ran.stdout).toMatch(/^healthy-h6: \S+bank\.csv: enqueued \(\w+\) as run /m);
    expect(ran.stdout).not.toContain('sftp-enqueue-refused');
  });

  it('reconcile: the refused feed stops (exit 3), the other feed is compared', async () => {
    const wrongKey = keyed.replace(server.hostKey, `SHA256:${'B'.repeat(43)}`);
    const refused = feedFile('sftp-reconcile-refused', `${server.root}/in/*.csv`, wrongKey);
    const healthy = healthyFeed('H4', 20);
    expect((await cli('sync', [healthy])).code).toBe(0);
    const ran = await cli('reconcile', [refused, healthy], { [KEY_ENV]: server.privateKey });
    expect(`${ran.stdout}${ran.stderr}`).not.toContain('unexpected error');
    expect(ran.code).toBe(3);
    expect(ran.stdout).toContain(`sftp-reconcile-refused: stopped: sftp://`);
    expect(ran.stdout).toContain(server.hostKey);
    expect(ran.stdout).toContain('healthy-h4: equal');
    expect(ran.stdout).toContain('20 equal, 0 missing');
  });
});

describe('refused S3 credentials in a sync of several feeds', () => {
  let s3: S3TestServer;
  beforeAll(async () => {
    s3 = await startS3Server('exports');
    await s3.put('acme/bank-1.csv', csvExport('S', 2));
  });
  afterAll(() => s3?.stop());

  it('stops that feed (exit 3) with its report; the other feed syncs every record', async () => {
    const location = `{type: s3, bucket: exports, region: eu-central-1, endpoint: "${s3.endpoint}", forcePathStyle: true}`;
    const refused = feedFile('s3-refused', 'acme/bank-*.csv', location);
    const ran = await cli('sync', [refused, healthyFeed('H5')], {
      AWS_ACCESS_KEY_ID: 'NOT-S3RVER',
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    });
    expect(ran.code).toBe(3);
    expectRefused(ran, 's3-refused', 'ACCESS_DENIED', 3);
    expectHealthy(ran, 'H5');
  });
});
