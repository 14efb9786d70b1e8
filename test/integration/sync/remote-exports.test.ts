import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fleetTestWorld } from '../../support/fleet-harness.js';
import { S3RVER_CREDENTIALS, type S3TestServer, startS3Server } from '../../support/s3-server.js';
import { type SshdServer, sshdMissing, startSshdServer } from '../../support/sshd-server.js';
import { type SyncHarness, syncHarness } from '../../support/sync-harness.js';

const ACCOUNT = 1001;
const KEY_ENV = 'ERP_BRIDGE_TEST_SFTP_KEY';

/** A small German bank CSV export of `rows` transactions, ids prefixed with `tag`. */
function csvExport(tag: string, rows: number): string {
  const lines = ['Buchungstag;Betrag;Verwendungszweck;Referenz'];
  for (let i = 1; i <= rows; i++)
    lines.push(`0${(i % 9) + 1}.03.2024;-${i},50;Rechnung ${tag}-${i};${tag}-${i}`);
  return `${lines.join('\r\n')}\r\n`;
}

/** A feed of those exports wherever they live: `location` is its YAML (flow style). */
function feedFile(name: string, location: string, path: string, extra: string[] = []): string {
  const dir = mkdtempSync(join(tmpdir(), 'erp-bridge-remote-feed-'));
  const feed = [
    `name: ${name}`,
    `accountId: ${ACCOUNT}`,
    'kind: transactions',
    `source: {path: ${JSON.stringify(path)}, format: csv, delimiter: ";", decimalSeparator: ",", dateFormat: dd.MM.yyyy, location: ${location}${extra.length ? `, ${extra.join(', ')}` : ''}}`,
    `bankAccount: {externalId: ${name}, accountName: ${name}, bankName: Bank}`,
    'mapping: {externalId: Referenz, amount: Betrag, bookingDate: Buchungstag, valueDate: Buchungstag, purpose: Verwendungszweck}',
  ].join('\n');
  writeFileSync(join(dir, 'feed.yaml'), `${feed}\n`);
  return join(dir, 'feed.yaml');
}

const skipSftp = sshdMissing();

describe.skipIf(skipSftp !== undefined)(
  'exports on a real SFTP server (OpenSSH on loopback), synced through the sandbox',
  () => {
    let server: SshdServer;
    let location: string;
    beforeAll(async () => {
      server = await startSshdServer();
      process.env[KEY_ENV] = server.privateKey;
      location = `{type: sftp, host: ${server.host}, port: ${server.port}, user: ${server.user}, privateKeyEnv: ${KEY_ENV}, hostKey: "${server.hostKey}"}`;
    });
    afterAll(async () => {
      delete process.env[KEY_ENV];
      await server?.stop();
    });

    describe('in one process (sync)', () => {
      let h: SyncHarness;
      beforeEach(async () => {
        h = await syncHarness();
      });
      afterEach(() => h.close());

      it('reads the files in place, fingerprints them, moves them to processed/ once stored; a rerun finds none', async () => {
        const inbox = join(server.root, 'sync-in');
        mkdirSync(inbox, { recursive: true });
        writeFileSync(join(inbox, 'bank-1.csv'), csvExport('S1', 3));
        writeFileSync(join(inbox, 'bank-2.csv'), csvExport('S2', 2));
        const feed = feedFile('sftp-sync', location, `${inbox}/bank-*.csv`, [
          'arrival: immediate',
          'afterRun: move',
        ]);
        const first = await h.run(feed);
        expect(first.summary.counts).toMatchObject({ created: 5, rejected: 0, failed: 0 });
        expect(first.summary.files.map((f) => f.path)).toEqual([
          `sftp://${server.user}@${server.host}:${server.port}${inbox}/bank-1.csv`,
          `sftp://${server.user}@${server.host}:${server.port}${inbox}/bank-2.csv`,
        ]);
        expect(first.outcomes.find((o) => o.externalId === 'S1-2')).toMatchObject({
          outcome: 'created',
          line: 3,
        });
        expect(readdirSync(inbox).sort()).toEqual(['processed']);
        expect(readdirSync(join(inbox, 'processed')).sort()).toEqual(['bank-1.csv', 'bank-2.csv']);
        expect(h.transactions(ACCOUNT).filter((t) => t.externalId?.startsWith('S'))).toHaveLength(5);

        const again = await h.run(feed);
        expect(again.summary.files).toEqual([]);
        expect(h.transactions(ACCOUNT).filter((t) => t.externalId?.startsWith('S'))).toHaveLength(5);
      });

      it('a changed host key stops the run before anything is read (exit 3), naming the fingerprint it saw', async () => {
        const wrong = location.replace(server.hostKey, `SHA256:${'A'.repeat(43)}`);
        const feed = feedFile('sftp-wrong-key', wrong, `${server.root}/none/*.csv`, ['arrival: immediate']);
        const run = await h.run(feed);
        expect(run.summary.state).toBe('stopped');
        expect(run.summary.stopReason).toMatchObject({ code: 'HOST_KEY_MISMATCH', exitCode: 3 });
        expect(run.summary.stopReason?.message).toContain(server.hostKey);
        expect(run.summary.files).toEqual([]);
      });
    });

    describe('on the fleet (workers with no disk in common with the exports)', () => {
      const world = fleetTestWorld();
      it('two workers import every file of the server once', async () => {
        const inbox = join(server.root, 'fleet-in');
        mkdirSync(inbox, { recursive: true });
        for (let i = 1; i <= 3; i++) writeFileSync(join(inbox, `bank-${i}.csv`), csvExport(`F${i}`, 4));
        const fleet = world.start();
        fleet.worker(4);
        fleet.worker(4);
        const feed = feedFile('sftp-fleet', location, `${inbox}/bank-*.csv`, ['arrival: immediate']);
        const runs = await fleet.enqueue(feed);
        expect(runs).toHaveLength(3);
        for (const run of runs)
          expect((await fleet.finished(String(run.runId))).counts).toMatchObject({ created: 4, failed: 0 });
        expect(world.transactions(ACCOUNT).filter((t) => t.externalId?.startsWith('F'))).toHaveLength(12);
        // The files' fingerprints are claimed: enqueuing again enqueues none of them.
        const again = await fleet.enqueue(feed);
        expect(again.map((r) => [r.enqueued, 'reason' in r ? r.reason : ''])).toEqual([
          [false, 'already imported'],
          [false, 'already imported'],
          [false, 'already imported'],
        ]);
      });

      it('a worker without the secret variable stops the run (exit 2, SECRET_MISSING) with its summary', async () => {
        const inbox = join(server.root, 'fleet-no-secret');
        mkdirSync(inbox, { recursive: true });
        writeFileSync(join(inbox, 'bank-1.csv'), csvExport('N1', 3));
        const feed = feedFile('sftp-fleet-no-secret', location, `${inbox}/bank-*.csv`, [
          'arrival: immediate',
        ]);
        const fleet = world.start();
        // Enqueued where the key is set; the worker, whose environment lacks it, must read the file.
        const [run] = await fleet.enqueue(feed);
        delete process.env[KEY_ENV];
        try {
          fleet.worker(2);
          const summary = await fleet.finished(String(run?.runId));
          expect(summary.state).toBe('stopped');
          expect(summary.stopReason).toMatchObject({ code: 'SECRET_MISSING', exitCode: 2 });
          expect(summary.stopReason?.message).toContain(KEY_ENV);
          expect(summary.counts.created).toBe(0);
        } finally {
          process.env[KEY_ENV] = server.privateKey;
        }
      });
    });
  },
);

describe('exports in an S3 bucket (s3rver on loopback), synced through the sandbox', () => {
  let s3: S3TestServer;
  let h: SyncHarness;
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
  beforeAll(async () => {
    s3 = await startS3Server('exports');
    process.env.AWS_ACCESS_KEY_ID = S3RVER_CREDENTIALS.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = S3RVER_CREDENTIALS.secretAccessKey;
  });
  afterAll(async () => {
    if (saved.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
    else process.env.AWS_ACCESS_KEY_ID = saved.id;
    if (saved.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
    else process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
    await s3?.stop();
  });
  beforeEach(async () => {
    h = await syncHarness();
  });
  afterEach(() => h.close());

  it('lists by key glob, reads the objects in place, deletes them once stored; a marker decides arrival', async () => {
    await s3.put('acme/bank-1.csv', csvExport('B1', 2));
    await s3.put('acme/bank-1.csv.done', '');
    await s3.put('acme/bank-2.csv', csvExport('B2', 2));
    await s3.put('acme/processed/bank-0.csv', csvExport('B0', 9));
    const location = `{type: s3, bucket: exports, region: eu-central-1, endpoint: "${s3.endpoint}", forcePathStyle: true}`;
    const feed = feedFile('s3-sync', location, 'acme/bank-*.csv', ['arrival: marker', 'afterRun: delete']);
    const first = await h.run(feed);
    expect(first.summary.counts).toMatchObject({ created: 2, failed: 0 });
    expect(first.summary.files.map((f) => f.path)).toEqual([
      expect.stringMatching(/^s3:\/\/exports.*acme\/bank-1\.csv$/),
    ]);
    expect(first.summary.waiting?.map((w) => w.path)).toEqual([expect.stringMatching(/acme\/bank-2\.csv$/)]);
    const deleted = (await s3.requests())
      .filter((r) => r.method === 'DELETE')
      .map((r) => new URL(r.url, s3.endpoint).pathname);
    expect(deleted).toEqual(['/exports/acme/bank-1.csv', '/exports/acme/bank-1.csv.done']);

    await s3.put('acme/bank-2.csv.done', '');
    const second = await h.run(feed);
    expect(second.summary.counts).toMatchObject({ created: 2, failed: 0 });
    expect(
      h
        .transactions(ACCOUNT)
        .filter((t) => t.externalId?.startsWith('B'))
        .map((t) => t.externalId)
        .sort(),
    ).toEqual(['B1-1', 'B1-2', 'B2-1', 'B2-2']);
  });

  it('afterRun: move puts a key into the default folder beside it (docs/locations.md), not a copy of its path', async () => {
    await s3.put('moving/acme/bank-1.csv', csvExport('M1', 2));
    const location = `{type: s3, bucket: exports, region: eu-central-1, endpoint: "${s3.endpoint}", forcePathStyle: true}`;
    const feed = feedFile('s3-move', location, 'moving/acme/bank-*.csv', [
      'arrival: immediate',
      'afterRun: move',
    ]);
    const run = await h.run(feed);
    expect(run.summary.counts).toMatchObject({ created: 2, failed: 0 });
    const copied = (await s3.requests())
      .filter(
        (r) => r.method === 'PUT' && new URL(r.url, s3.endpoint).pathname.startsWith('/exports/moving/'),
      )
      .map((r) => new URL(r.url, s3.endpoint).pathname)
      .filter((path) => path !== '/exports/moving/acme/bank-1.csv'); // the test's own put
    expect(copied).toEqual(['/exports/moving/acme/processed/bank-1.csv']);
  });
});
