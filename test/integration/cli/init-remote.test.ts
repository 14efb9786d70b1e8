import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SAMPLE_BYTES, SAMPLE_ROWS } from '../../../src/init/sample.js';
import { runCli } from '../../support/cli-run.js';
import { fillIn, GERMAN_EXPORT, shownRecords } from '../../support/init-cli.js';
import { S3RVER_CREDENTIALS, type S3TestServer, startS3Server } from '../../support/s3-server.js';
import { type SshdServer, sshdMissing, startSshdServer } from '../../support/sshd-server.js';
import { writeBookingsWorkbook } from '../../support/xlsx-files.js';

/**
 * `erp-bridge init --location`: the export on an SFTP server (a real sshd on loopback) or in an
 * S3 bucket (s3rver), read where it lives. The feed it writes carries the location as given and
 * the server's folder (or key prefix) with the name pattern, and `check` on it reads the same
 * records as on the feed init writes for a local copy of the export.
 */
const KEY_ENV = 'ERP_BRIDGE_TEST_SFTP_KEY';
const work = mkdtempSync(join(tmpdir(), 'erp-bridge-init-remote-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const NAME = 'umsaetze-2026-01.csv';

/** The records `check` reads from the feed init wrote for a local copy of the export, filled in. */
let localRecords: Promise<string[]> | undefined;
function recordsOfLocalCopy(): Promise<string[]> {
  localRecords ??= (async () => {
    const dir = join(work, 'local');
    mkdirSync(join(dir, 'exports'), { recursive: true });
    writeFileSync(join(dir, 'exports', NAME), GERMAN_EXPORT);
    const feed = join(dir, 'umsaetze.yaml');
    expect((await runCli(['init', join(dir, 'exports', NAME), '--out', feed], {})).code).toBe(0);
    fillIn(feed);
    const checked = await runCli(['check', feed, '--show', '10'], {});
    expect(checked.code).toBe(0);
    return shownRecords(checked.stdout);
  })();
  return localRecords;
}

/** Init's feed filled in, then `check` on it: its records, as for the local copy. */
async function checkedRecords(feed: string, env: Record<string, string>): Promise<string[]> {
  fillIn(feed);
  const checked = await runCli(['check', feed, '--show', '10'], env);
  expect(checked.code).toBe(0);
  return shownRecords(checked.stdout);
}

const skipSftp = sshdMissing();

describe.skipIf(skipSftp !== undefined)('erp-bridge init on an export on an SFTP server', () => {
  let server: SshdServer;
  let location: string;
  const env = () => ({ [KEY_ENV]: server.privateKey });
  beforeAll(async () => {
    server = await startSshdServer();
    location = `{type: sftp, host: ${server.host}, port: ${server.port}, user: ${server.user}, privateKeyEnv: ${KEY_ENV}, hostKey: "${server.hostKey}"}`;
    mkdirSync(join(server.root, 'in'), { recursive: true });
    writeFileSync(join(server.root, 'in', NAME), GERMAN_EXPORT);
  });
  afterAll(() => server?.stop());

  it('writes source.location as given and source.path as the folder on the server with the name pattern; check reads what it reads from a local copy', async () => {
    const feed = join(work, 'sftp', 'umsaetze.yaml');
    const ran = await runCli(
      ['init', `${server.root}/in/${NAME}`, '--location', location, '--out', feed],
      env(),
    );
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain(
      `wrote ${feed} from sftp://${server.user}@${server.host}:${server.port}${server.root}/in/${NAME}`,
    );
    expect(ran.stdout).toMatch(/source\.encoding\s+"windows-1252"\s+sure\s/);
    const text = readFileSync(feed, 'utf8');
    // The secret stays in its variable: neither printed nor written.
    const keyLine = server.privateKey.split('\n')[1] ?? 'no key line';
    expect(`${ran.stdout}${text}`).not.toContain(keyLine);
    const doc = parse(text);
    expect(doc.name).toBe('umsaetze');
    expect(doc.source.location).toEqual({
      type: 'sftp',
      host: server.host,
      port: server.port,
      user: server.user,
      privateKeyEnv: KEY_ENV,
      hostKey: server.hostKey,
    });
    expect(doc.source.path).toBe(`${server.root}/in/umsaetze-*.csv`);

    const records = await checkedRecords(feed, env());
    expect(records).toHaveLength(3);
    expect(records).toEqual(await recordsOfLocalCopy());
  });

  it('a workbook larger than the sample: read in ranges over SFTP, its columns mapped from its first rows', async () => {
    const path = join(server.root, 'in', 'kontoauszug-2026-03.xlsx');
    await writeBookingsWorkbook(path, 60_000);
    expect(statSync(path).size).toBeGreaterThan(4 * SAMPLE_BYTES);
    const feed = join(work, 'sftp-xlsx', 'kontoauszug.yaml');
    const ran = await runCli(['init', path, '--location', location, '--out', feed], env());
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain(`(${SAMPLE_ROWS} rows looked at`);
    expect(ran.stdout).toMatch(/mapping\.amount\s+"Betrag"\s+sure\s/);
    const doc = parse(readFileSync(feed, 'utf8'));
    expect(doc.source).toMatchObject({ path: `${server.root}/in/kontoauszug-*.xlsx`, format: 'xlsx' });
    expect(doc.mapping).toMatchObject({
      bookingDate: 'Buchungstag',
      amount: 'Betrag',
      purpose: 'Verwendungszweck',
    });
  });

  it('a host key other than the pinned one: exit 3 with the location’s message naming the key seen, nothing written', async () => {
    const feed = join(work, 'sftp-wrong-key.yaml');
    const wrong = location.replace(server.hostKey, `SHA256:${'A'.repeat(43)}`);
    const ran = await runCli(
      ['init', `${server.root}/in/${NAME}`, '--location', wrong, '--out', feed],
      env(),
    );
    expect(ran.code).toBe(3);
    expect(ran.stderr).toContain(`erp-bridge init: sftp://${server.user}@${server.host}:${server.port}`);
    expect(ran.stderr).toContain(server.hostKey);
    expect(ran.stderr).not.toContain('unexpected error');
    expect(existsSync(feed)).toBe(false);
  });

  it('a file the server does not have: exit 2 "no such file on" the location, nothing written', async () => {
    const feed = join(work, 'sftp-missing.yaml');
    const missing = `${server.root}/in/umsaetze-2026-02.csv`;
    const ran = await runCli(['init', missing, '--location', location, '--out', feed], env());
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(
      `${missing}: no such file on sftp://${server.user}@${server.host}:${server.port}`,
    );
    expect(existsSync(feed)).toBe(false);
  });
});

describe('erp-bridge init on an export in an S3 bucket', () => {
  let s3: S3TestServer;
  beforeAll(async () => {
    s3 = await startS3Server('exports');
    await s3.put(`acme/${NAME}`, GERMAN_EXPORT);
  });
  afterAll(() => s3?.stop());
  const env = () => ({
    AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
  });

  it('writes the location as given and the key prefix with the name pattern; check reads what it reads from a local copy', async () => {
    const feed = join(work, 's3', 'umsaetze.yaml');
    const location = `{type: s3, bucket: exports, region: eu-central-1, endpoint: "${s3.endpoint}", forcePathStyle: true}`;
    const ran = await runCli(['init', `acme/${NAME}`, '--location', location, '--out', feed], env());
    // The AWS SDK warns on stderr of Node versions it will drop: nothing of init's own.
    expect(ran.stderr).not.toContain('erp-bridge init:');
    expect(ran.code).toBe(0);
    const doc = parse(readFileSync(feed, 'utf8'));
    expect(doc.source.location).toEqual({
      type: 's3',
      bucket: 'exports',
      region: 'eu-central-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
    });
    expect(doc.source.path).toBe('acme/umsaetze-*.csv');
    const records = await checkedRecords(feed, env());
    expect(records).toHaveLength(3);
    expect(records).toEqual(await recordsOfLocalCopy());
  });
});

describe('erp-bridge init --location that is not a location', () => {
  it('an unknown key: exit 2 naming it and what a location takes, as the feed loader says it; nothing written', async () => {
    const feed = join(work, 'unknown-key.yaml');
    const ran = await runCli(
      [
        'init',
        `/in/${NAME}`,
        '--location',
        `{type: sftp, host: 127.0.0.1, user: erp, privateKeyEnv: ${KEY_ENV}, hostKey: "SHA256:${'A'.repeat(43)}", hots: x}`,
        '--out',
        feed,
      ],
      {},
    );
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain("--location: not a location (the keys of a feed's source.location");
    expect(ran.stderr).toContain('- --location: Unrecognized key: "hots" (hots)');
    const wrongValue = await runCli(
      [
        'init',
        `/in/${NAME}`,
        '--location',
        '{type: sftp, host: h, user: u, passwordEnv: P, hostKey: abc}',
        '--out',
        feed,
      ],
      {},
    );
    expect(wrongValue.code).toBe(2);
    expect(wrongValue.stderr).toContain(
      '- --location.hostKey: SHA256:<43 base64 characters>, as ssh-keygen -lf prints it',
    );
    expect(existsSync(feed)).toBe(false);
  });
});
