import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Location } from '../../../src/sources/locations/location.js';
import type { RetryNotice } from '../../../src/sources/locations/resumable-read.js';
import { openS3Location, type S3LocationOptions } from '../../../src/sources/locations/s3.js';
import { S3LocationError } from '../../../src/sources/locations/s3-errors.js';
import { freePort } from '../../support/redis-server.js';
import { S3RVER_CREDENTIALS, type S3TestServer, startS3Server } from '../../support/s3-server.js';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.js';

let server: S3TestServer;
let work: string;
const open: Location[] = [];
const proxies: TcpProxy[] = [];

/** A location on the test server (or on `endpoint`), credentials from the environment. */
function location(endpoint = server.endpoint, options: S3LocationOptions = {}): Location {
  const opened = openS3Location(
    { type: 's3', bucket: server.bucket, endpoint, forcePathStyle: true },
    { retry: { firstDelayMs: 5, maxDelayMs: 20 }, ...options },
  );
  open.push(opened);
  return opened;
}

async function proxy(): Promise<TcpProxy> {
  const started = await startTcpProxy(server.port);
  proxies.push(started);
  return started;
}

/** All bytes of a stream, or the bytes that came before its error together with the error. */
async function drain(stream: Readable): Promise<{ bytes: Buffer; error?: unknown }> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return { bytes: Buffer.concat(chunks) };
  } catch (error) {
    return { bytes: Buffer.concat(chunks), error };
  }
}

/** What `promise` rejects with; fails the test when it resolves. */
async function thrown(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected a rejection'),
    (error: unknown) => error,
  );
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const getsOf = async (key: string) =>
  (await server.requests()).filter((r) => r.method === 'GET' && r.url.startsWith(`/${server.bucket}/${key}`));

beforeAll(async () => {
  server = await startS3Server();
  work = await mkdtemp(join(tmpdir(), 'erp-bridge-s3-test-'));
  // The standard chain, as an operator sets it: no credentials in the feed or the code.
  vi.stubEnv('AWS_ACCESS_KEY_ID', S3RVER_CREDENTIALS.accessKeyId);
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', S3RVER_CREDENTIALS.secretAccessKey);
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((l) => l.close()));
  await Promise.all(proxies.splice(0).map((p) => p.stop()));
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await server?.stop();
  await rm(work, { recursive: true, force: true });
});

describe('S3 location: list and stat', () => {
  it('lists the keys a glob names across "folders", sorted, with size and modification time', async () => {
    const keys = [
      'exports/acme/2026/b.csv',
      'exports/acme/2026/a.csv',
      'exports/acme/2026/a.txt',
      'exports/beta/2026/c.csv',
      'exports/beta/2025/d.csv',
      'exports/acme/x.csv',
      'exports/acme/processed/x.csv',
      'exports/acme/xy.csv',
    ];
    for (const key of keys) await server.put(key, `content of ${key}`);
    const s3 = location();

    const across = await s3.list('exports/*/2026/*.csv');
    expect(across.map((f) => f.path)).toEqual([
      'exports/acme/2026/a.csv',
      'exports/acme/2026/b.csv',
      'exports/beta/2026/c.csv',
    ]);
    expect(across[0]?.size).toBe('content of exports/acme/2026/a.csv'.length);
    expect(Math.abs((across[0]?.mtimeMs ?? 0) - Date.now())).toBeLessThan(120_000);

    // `*` stays within its segment: processed/ is not a match of exports/acme/*.csv.
    expect((await s3.list('exports/acme/*.csv')).map((f) => f.path)).toEqual([
      'exports/acme/x.csv',
      'exports/acme/xy.csv',
    ]);
    expect((await s3.list('exports/acme/?.csv')).map((f) => f.path)).toEqual(['exports/acme/x.csv']);
    expect((await s3.list('exports/acme/x.csv')).map((f) => f.path)).toEqual(['exports/acme/x.csv']);
    expect(await s3.list('exports/none/*.csv')).toEqual([]);
  });

  it('follows pagination past 1000 keys, with and without a delimiter', async () => {
    const keys = Array.from({ length: 1003 }, (_, i) => `bulk/day-1/f-${String(i).padStart(4, '0')}.csv`);
    for (let i = 0; i < keys.length; i += 32)
      await Promise.all(keys.slice(i, i + 32).map((key) => server.put(key, 'x')));
    await server.put('bulk/day-1/sub/f-9999.csv', 'not a match of either glob');
    const s3 = location();

    const lists = async () =>
      (await server.requests()).filter((r) => r.method === 'GET' && r.url.includes('list-type=2'));
    const before = (await lists()).length;
    const flat = await s3.list('bulk/day-1/f-*.csv');
    expect(flat.map((f) => f.path)).toEqual(keys);
    const flatPages = (await lists()).slice(before);
    expect(flatPages).toHaveLength(2); // 1000 + 3
    expect(flatPages[1]?.url).toContain('continuation-token=');
    expect(flatPages[1]?.url).toContain('delimiter=%2F');

    const nested = await s3.list('bulk/*/f-*.csv');
    expect(nested.map((f) => f.path)).toEqual(keys);
    const nestedPages = (await lists()).slice(before + 2);
    expect(nestedPages).toHaveLength(2);
    expect(nestedPages[1]?.url).toContain('continuation-token=');
    expect(nestedPages[1]?.url).not.toContain('delimiter=');
  });

  it('stats a key, and says undefined for a missing one', async () => {
    await server.put('stat/one.csv', 'abc');
    const s3 = location();
    expect(await s3.stat('stat/one.csv')).toMatchObject({ path: 'stat/one.csv', size: 3 });
    expect(await s3.stat('stat/missing.csv')).toBeUndefined();
  });
});

describe('S3 location: ranged, streamed reads', () => {
  const size = 6 * 1024 * 1024 + 123;
  let content: Buffer;
  let local: string;

  beforeAll(async () => {
    content = randomBytes(size);
    local = join(work, 'big.bin');
    await writeFile(local, content);
    await server.put('reads/big.bin', content);
  });

  it('reads whole files and ranges byte for byte as the local file, sha256 included', async () => {
    const s3 = location();
    const bytes = await readFile(local);
    const whole = await drain(s3.read('reads/big.bin'));
    expect(whole.error).toBeUndefined();
    expect(sha256(whole.bytes)).toBe(sha256(bytes));

    const ranges: Array<[number, number | undefined]> = [
      [0, 1],
      [1000, 4_000_000],
      [5_000_000, undefined],
      [size - 1, size],
      [size - 10, size + 1000], // past the end: as much as there is, like a local read
    ];
    for (const [start, end] of ranges) {
      const got = await drain(s3.read('reads/big.bin', end === undefined ? { start } : { start, end }));
      expect(got.error).toBeUndefined();
      expect(got.bytes.equals(bytes.subarray(start, end))).toBe(true);
    }
    expect((await drain(s3.read('reads/big.bin', { start: size }))).bytes.length).toBe(0);
    expect((await drain(s3.read('reads/big.bin', { start: 10, end: 10 }))).bytes.length).toBe(0);

    await server.put('reads/empty.csv', '');
    expect(await drain(s3.read('reads/empty.csv'))).toEqual({ bytes: Buffer.alloc(0) });
  });

  it('resumes at the byte reached when the connection is reset mid-read (If-Match pinned)', async () => {
    const cutter = await proxy();
    const notices: RetryNotice[] = [];
    const s3 = location(cutter.endpoint, { onRetry: (n) => notices.push(n) });
    const cut = cutter.cutAfter(1_500_000);
    const gets = (await getsOf('reads/big.bin')).length;

    const got = await drain(s3.read('reads/big.bin', { start: 100 }));
    await cut;
    expect(got.error).toBeUndefined();
    expect(sha256(got.bytes)).toBe(sha256(content.subarray(100)));
    expect(notices).toHaveLength(1);
    const resumedAt = notices[0]?.position ?? 0;
    expect(resumedAt).toBeGreaterThan(100);
    expect(notices[0]?.reason).toMatch(/ECONNRESET|aborted|socket hang up|reset/i);

    const resumed = (await getsOf('reads/big.bin')).slice(gets);
    expect(resumed).toHaveLength(2);
    expect(resumed[0]).toMatchObject({ range: 'bytes=100-' });
    expect(resumed[0]?.ifMatch).toBeUndefined();
    expect(resumed[1]).toMatchObject({ range: `bytes=${resumedAt}-${size - 1}` });
    expect(resumed[1]?.ifMatch).toMatch(/^".+"$/);
  });

  it('rides out a server restart mid-read: connection closed, refused, then served again', async () => {
    const notices: RetryNotice[] = [];
    // Enough retries for a restart (a node start); each waits at most 200 ms.
    const retry = { retries: 100, firstDelayMs: 20, maxDelayMs: 200 };
    const s3 = location(server.endpoint, { retry, onRetry: (n) => notices.push(n) });
    const stream = s3.read('reads/big.bin');
    const first = await new Promise<Buffer>((resolve) => stream.once('data', resolve));
    stream.pause();
    await server.restart();

    const rest = await drain(stream);
    expect(rest.error).toBeUndefined();
    expect(sha256(Buffer.concat([first, rest.bytes]))).toBe(sha256(content));
    expect(notices.length).toBeGreaterThanOrEqual(1);
    expect(notices[0]?.position).toBeGreaterThan(0);
    expect(notices[0]?.position).toBeLessThan(size);
  });

  it('ends with a CHANGED error, never mixed bytes, when the object is replaced mid-read', async () => {
    await server.put('reads/changing.bin', content);
    const cutter = await proxy();
    const s3 = location(cutter.endpoint);
    // Cut the first GET, hold the resumed one until the object has been replaced.
    const cut = cutter.cutAfter(1_000_000, { hold: true });
    const reading = drain(s3.read('reads/changing.bin'));
    await cut;
    await server.put('reads/changing.bin', randomBytes(size));
    cutter.release();

    const { bytes, error } = await reading;
    expect(error).toBeInstanceOf(S3LocationError);
    expect(error).toMatchObject({ code: 'CHANGED', path: 'reads/changing.bin' });
    expect((error as Error).message).toMatch(/changed while being read/);
    expect(bytes.length).toBeLessThanOrEqual(1_000_000);
    expect(bytes.equals(content.subarray(0, bytes.length))).toBe(true);
  });

  it('gives up after its retries when the server stays unreachable, saying so', async () => {
    const notices: RetryNotice[] = [];
    const down = `http://127.0.0.1:${await freePort()}`;
    const s3 = location(down, {
      retry: { retries: 2, firstDelayMs: 1, maxDelayMs: 2 },
      onRetry: (n) => notices.push(n),
    });
    const { error } = await drain(s3.read('reads/big.bin'));
    expect(error).toMatchObject({ code: 'TRANSIENT' });
    expect((error as Error).message).toMatch(/ECONNREFUSED.*gave up after 2 retries/);
    expect(notices.map((n) => n.retry)).toEqual([1, 2]);
  });

  it('fails a missing key once, without retries', async () => {
    const notices: RetryNotice[] = [];
    const s3 = location(server.endpoint, { onRetry: (n) => notices.push(n) });
    const { error } = await drain(s3.read('reads/missing.csv'));
    expect(error).toBeInstanceOf(S3LocationError);
    expect(error).toMatchObject({ code: 'NOT_FOUND', path: 'reads/missing.csv' });
    expect((error as Error).message).toContain('reads/missing.csv');
    expect(await getsOf('reads/missing.csv')).toHaveLength(1);
    expect(notices).toEqual([]);
  });

  it('drops its connection when the reader destroys the stream', async () => {
    const s3 = location();
    const stream = s3.read('reads/big.bin');
    const first = await new Promise<Buffer>((resolve) => stream.once('data', resolve));
    expect(first.length).toBeGreaterThan(0);
    stream.destroy();
    await new Promise((resolve) => stream.once('close', resolve));
    expect(stream.destroyed).toBe(true);
  });
});

describe('S3 location: after-care', () => {
  it('moves into a folder beside the key or from the bucket root, and removes', async () => {
    const key = 'care/acme/Kontoauszug März 01.csv';
    await server.put(key, 'line 1\n');
    const s3 = location();

    const moved = await s3.move(key, 'processed');
    expect(moved).toBe('care/acme/processed/Kontoauszug März 01.csv');
    expect(await s3.stat(key)).toBeUndefined();
    expect((await drain(s3.read(moved))).bytes.toString()).toBe('line 1\n');

    // Another object of that name is not moved over the one moved before.
    await server.put(key, 'line 2\n');
    await expect(s3.move(key, 'processed')).rejects.toThrow(
      /processed\/Kontoauszug März 01\.csv exists already/,
    );
    expect((await drain(s3.read(moved))).bytes.toString()).toBe('line 1\n');
    await s3.remove(key);

    const archived = await s3.move(moved, '/archive/acme/');
    expect(archived).toBe('archive/acme/Kontoauszug März 01.csv');
    expect(await s3.stat(archived)).toMatchObject({ size: 7 });

    await s3.remove(archived);
    expect(await s3.stat(archived)).toBeUndefined();
    expect(await s3.list('care/acme/processed/*')).toEqual([]);
  });

  it('refuses to move a missing key, naming it', async () => {
    const error = await thrown(location().move('care/missing.csv', 'processed'));
    expect(error).toMatchObject({ code: 'NOT_FOUND', path: 'care/missing.csv' });
  });
});

describe('S3 location: credentials', () => {
  afterEach(() => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', S3RVER_CREDENTIALS.accessKeyId);
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', S3RVER_CREDENTIALS.secretAccessKey);
  });

  it('says clearly that no credentials were found, before any request', async () => {
    for (const name of [
      'AWS_ACCESS_KEY_ID',
      'AWS_SECRET_ACCESS_KEY',
      'AWS_SESSION_TOKEN',
      'AWS_PROFILE',
      'AWS_WEB_IDENTITY_TOKEN_FILE',
      'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI',
      'AWS_CONTAINER_CREDENTIALS_FULL_URI',
    ])
      vi.stubEnv(name, undefined);
    vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', join(work, 'no-credentials'));
    vi.stubEnv('AWS_CONFIG_FILE', join(work, 'no-config'));
    vi.stubEnv('AWS_EC2_METADATA_DISABLED', 'true');
    const requests = (await server.requests()).length;

    const error = await thrown(location().list('exports/*.csv'));
    expect(error).toBeInstanceOf(S3LocationError);
    expect(error).toMatchObject({ code: 'NO_CREDENTIALS' });
    expect((error as Error).message).toMatch(
      /^s3:\/\/exports on 127\.0\.0\.1:\d+: LIST exports\/\*\.csv: no AWS credentials found/,
    );
    expect((error as Error).message).toContain('AWS_ACCESS_KEY_ID');
    expect((await server.requests()).length).toBe(requests);
  });

  it('reports unknown credentials as access denied without echoing the secret', async () => {
    // s3rver checks the access key id, not the signature: an unknown key id is what it refuses.
    const secret = 'wrong-secret-do-not-print-0451';
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIAUNKNOWN0451');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', secret);
    const error = await thrown(location().list('exports/acme/*.csv'));
    expect(error).toMatchObject({ code: 'ACCESS_DENIED' });
    expect((error as Error).message).toMatch(/access denied.*InvalidAccessKeyId 403/);
    expect(`${(error as Error).message} ${JSON.stringify(error)}`).not.toContain(secret);
  });
});
