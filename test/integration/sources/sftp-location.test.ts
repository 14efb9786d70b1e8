import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secrets } from '../../../src/logging/secret-scrubber.js';
import type { Location } from '../../../src/sources/locations/location.js';
import type { SftpLocationConfig } from '../../../src/sources/locations/location-config.js';
import type { RetryEvent } from '../../../src/sources/locations/retry.js';
import { openSftpLocation, type SftpOptions } from '../../../src/sources/locations/sftp.js';
import { type SshdServer, sshdMissing, startSshdServer } from '../../support/sshd-server.js';

const skip = sshdMissing();
const KEY_ENV = 'TEST_SFTP_KEY';
/** Pauses of a millisecond: the tests check what is retried, not how long it waits. */
const FAST: SftpOptions['retry'] = { baseDelayMs: 1, maxDelayMs: 5 };

/** The error `promise` rejects with; fails the test when it resolves. */
async function thrown(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe.skipIf(skip)(`SFTP location against OpenSSH's sshd${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let server: SshdServer;
  let config: SftpLocationConfig;
  let env: NodeJS.ProcessEnv;
  /** 6 MiB of random bytes: far more than one SFTP packet (256 KiB with OpenSSH). */
  let big: Buffer;
  let bigPath: string;
  const open: Location[] = [];

  const location = (options: SftpOptions = {}, overrides: Partial<SftpLocationConfig> = {}) => {
    const retries: RetryEvent[] = [];
    const loc = openSftpLocation({ ...config, ...overrides }, env, {
      retry: FAST,
      onRetry: (event) => retries.push(event),
      ...options,
    });
    open.push(loc);
    return { loc, retries };
  };

  beforeAll(async () => {
    server = await startSshdServer();
    config = {
      type: 'sftp',
      host: server.host,
      port: server.port,
      user: server.user,
      privateKeyEnv: KEY_ENV,
      hostKey: server.hostKey,
    };
    env = { [KEY_ENV]: server.privateKey };
    const { root } = server;
    for (const dir of ['acme', 'beta', 'beta/2024', 'empty']) mkdirSync(join(root, dir));
    writeFileSync(join(root, 'acme', 'bank-2.csv'), 'two\n');
    writeFileSync(join(root, 'acme', 'bank-1.csv'), 'one\n');
    writeFileSync(join(root, 'acme', 'bank-10.csv'), 'ten\n');
    writeFileSync(join(root, 'acme', 'other.txt'), 'x');
    mkdirSync(join(root, 'acme', 'bank-3.csv')); // a directory is not a file
    writeFileSync(join(root, 'beta', 'bank-7.csv'), 'seven\n');
    writeFileSync(join(root, 'beta', '2024', 'bank-8.csv'), 'deeper\n');
    symlinkSync(join(root, 'beta', 'bank-7.csv'), join(root, 'acme', 'bank-L.csv'));
    symlinkSync(join(root, 'nowhere.csv'), join(root, 'acme', 'bank-D.csv'));
    big = randomBytes(6 * 1024 * 1024 + 12_345);
    bigPath = join(root, 'big.bin');
    writeFileSync(bigPath, big);
  });

  afterAll(async () => {
    await Promise.all(open.map((loc) => loc.close()));
    await server?.stop();
  });

  it('lists a glob: * and ? within segments, files only, links followed, sorted, with size and mtime', async () => {
    const { loc } = location();
    const { root } = server;
    const files = await loc.list(`${root}/*/bank-?.csv`);
    expect(files.map((f) => f.path)).toEqual([
      `${root}/acme/bank-1.csv`,
      `${root}/acme/bank-2.csv`,
      `${root}/acme/bank-L.csv`,
      `${root}/beta/bank-7.csv`,
    ]);
    expect(files[0]).toEqual({ path: `${root}/acme/bank-1.csv`, size: 4, mtimeMs: expect.any(Number) });
    expect(files[2]?.size).toBe(6); // the link's target
    const mtime = Math.floor(Date.now() / 1000) * 1000;
    expect(Math.abs((files[0]?.mtimeMs ?? 0) - mtime)).toBeLessThan(120_000);
    expect((await loc.list(`${root}/acme/bank-*.csv`)).map((f) => f.path)).toEqual([
      `${root}/acme/bank-1.csv`,
      `${root}/acme/bank-10.csv`,
      `${root}/acme/bank-2.csv`,
      `${root}/acme/bank-L.csv`,
    ]);
    expect((await loc.list(`${root}/acme/bank-1.csv`)).map((f) => f.path)).toEqual([
      `${root}/acme/bank-1.csv`,
    ]);
    expect(await loc.list(`${root}/empty/*.csv`)).toEqual([]);
    expect(await loc.list(`${root}/missing/*.csv`)).toEqual([]);
    const error = await thrown(loc.list('acme/*.csv'));
    expect(error).toMatchObject({ code: 'GLOB_NOT_ABSOLUTE' });
    expect(String(error)).toContain('acme/*.csv');
  });

  it('reads byte ranges streamed, equal to the local bytes, and its sha256 is the file’s', async () => {
    const { loc } = location();
    const whole = createHash('sha256');
    let chunks = 0;
    for await (const chunk of loc.read(bigPath)) {
      whole.update(chunk as Buffer);
      chunks++;
    }
    expect(whole.digest('hex')).toBe(createHash('sha256').update(big).digest('hex'));
    expect(chunks).toBeGreaterThan(10); // streamed in pieces, not one copy
    const ranges = [
      { start: 0, end: 10 },
      { start: 1_000_000, end: 3_500_001 },
      { start: big.length - 5 },
      { start: 100, end: 100 },
      { start: big.length - 3, end: big.length + 100 },
    ];
    for (const range of ranges) {
      expect((await bytesOf(loc.read(bigPath, range))).equals(big.subarray(range.start, range.end))).toBe(
        true,
      );
    }
  });

  it('makes one connection on first use and reuses it for every call', async () => {
    const before = await server.connections();
    const { loc } = location();
    expect(await server.connections()).toBe(before); // lazy: nothing yet
    await Promise.all([
      loc.list(`${server.root}/acme/*.csv`),
      loc.stat(bigPath),
      bytesOf(loc.read(bigPath, { start: 0, end: 1000 })),
    ]);
    await loc.stat(bigPath);
    expect(await server.connections()).toBe(before + 1);
    await loc.close();
    await expect(loc.stat(bigPath)).rejects.toMatchObject({ code: 'CLOSED' });
  });

  it('stats a file, and says undefined for one that is gone or a directory', async () => {
    const { loc } = location();
    expect(await loc.stat(bigPath)).toEqual({ path: bigPath, size: big.length, mtimeMs: expect.any(Number) });
    expect(await loc.stat(join(server.root, 'gone.csv'))).toBeUndefined();
    expect(await loc.stat(join(server.root, 'acme'))).toBeUndefined();
  });

  it('refuses a server whose host key is not the pinned one, naming both fingerprints, without retrying', async () => {
    const pinned = `SHA256:${'A'.repeat(43)}`;
    const { loc, retries } = location({}, { hostKey: pinned });
    const error = await thrown(loc.list(`${server.root}/acme/*.csv`));
    expect(error).toMatchObject({ code: 'HOST_KEY_MISMATCH' });
    expect(String(error)).toContain(server.hostKey);
    expect(String(error)).toContain(pinned);
    expect(String(error)).toContain('ssh-ed25519');
    expect(retries).toEqual([]);
    const read = await thrown(bytesOf(loc.read(bigPath)));
    expect(read).toMatchObject({ code: 'HOST_KEY_MISMATCH' });
  });

  it('names a missing or empty secret variable, never a value', () => {
    expect(() => openSftpLocation({ ...config, privateKeyEnv: 'NOT_SET_ANYWHERE' }, env)).toThrow(
      /source\.location\.privateKeyEnv names the environment variable NOT_SET_ANYWHERE, which is not set/,
    );
    expect(() =>
      openSftpLocation({ ...config, passphraseEnv: 'EMPTY_ONE' }, { ...env, EMPTY_ONE: '' }),
    ).toThrow(/passphraseEnv names the environment variable EMPTY_ONE, which is empty/);
  });

  it('says which variables the server refused, not their values; a password is sent as one', async () => {
    const other = await startSshdServer({ passwords: true });
    try {
      env.OTHER_KEY = other.privateKey; // a valid key the server does not know
      const { loc, retries } = location({}, { privateKeyEnv: 'OTHER_KEY' });
      const error = await thrown(loc.stat(bigPath));
      expect(error).toMatchObject({ code: 'AUTH_FAILED' });
      expect(String(error)).toContain('OTHER_KEY');
      expect(String(error)).not.toContain('PRIVATE KEY');
      expect(retries).toEqual([]);
      // Registered where it was read: an echo of the key in any message is scrubbed.
      expect(secrets.scrub(`echo: ${other.privateKey}`)).toBe('echo: [REDACTED]');

      env.SFTP_PASSWORD = 'not-the-password-1';
      const { privateKeyEnv: _, ...keyless } = config;
      const byPassword = openSftpLocation(
        { ...keyless, port: other.port, hostKey: other.hostKey, passwordEnv: 'SFTP_PASSWORD' },
        env,
        { retry: FAST },
      );
      open.push(byPassword);
      const refused = await thrown(byPassword.list(`${server.root}/*.csv`));
      expect(refused).toMatchObject({ code: 'AUTH_FAILED' });
      expect(String(refused)).toContain('SFTP_PASSWORD');
      expect(String(refused)).not.toContain('not-the-password-1');
      expect(other.log()).toMatch(new RegExp(`Failed password for ${server.user} from 127\\.0\\.0\\.1`));
    } finally {
      await other.stop();
    }
  });

  it('logs in with a passphrase-protected key, the passphrase from its own variable', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'erp-bridge-sftp-key-'));
    const keyFile = join(dir, 'key');
    writeFileSync(keyFile, server.privateKey, { mode: 0o600 });
    execFileSync('ssh-keygen', ['-q', '-p', '-P', '', '-N', 'correct horse', '-f', keyFile]);
    const encrypted = readFileSync(keyFile, 'utf8');
    rmSync(dir, { recursive: true });
    expect(encrypted).not.toBe(server.privateKey);
    env.ENCRYPTED_KEY = encrypted;
    env.KEY_PASSPHRASE = 'correct horse';
    const { loc } = location({}, { privateKeyEnv: 'ENCRYPTED_KEY', passphraseEnv: 'KEY_PASSPHRASE' });
    expect(await loc.stat(bigPath)).toMatchObject({ size: big.length });
  });

  it('moves a file into a folder it creates (mkdir -p), never over one of that name, and removes files', async () => {
    const { loc } = location();
    const dir = join(server.root, 'after');
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.csv'), 'first');
    const moved = await loc.move(join(dir, 'a.csv'), 'processed/2024');
    expect(moved).toBe(join(dir, 'processed', '2024', 'a.csv'));
    expect(readFileSync(moved, 'utf8')).toBe('first');
    // A second file of that name stays where it is: the one moved before is not overwritten.
    writeFileSync(join(dir, 'a.csv'), 'second');
    await expect(loc.move(join(dir, 'a.csv'), join(dir, 'processed', '2024'))).rejects.toThrow(
      /processed\/2024\/a\.csv exists already/,
    );
    expect(readFileSync(moved, 'utf8')).toBe('first');
    expect(readFileSync(join(dir, 'a.csv'), 'utf8')).toBe('second');
    await loc.remove(moved);
    expect(await loc.stat(moved)).toBeUndefined();
    await expect(loc.remove(moved)).rejects.toMatchObject({ code: 'NO_SUCH_FILE' });
  });

  it('fails a read of a missing file once, naming it, with no retry', async () => {
    const { loc, retries } = location();
    const missing = join(server.root, 'acme', 'bank-99.csv');
    const error = await thrown(bytesOf(loc.read(missing)));
    expect(error).toMatchObject({ code: 'NO_SUCH_FILE' });
    expect(String(error)).toContain(missing);
    expect(String(error)).toContain(`sftp://${server.user}@${server.host}:${server.port}`);
    expect(retries).toEqual([]);
  });

  it('resumes a read at the byte reached when the server kills its session mid-stream', async () => {
    const { loc, retries } = location();
    const chunks: Buffer[] = [];
    let received = 0;
    let dropped = 0;
    for await (const chunk of loc.read(bigPath, { start: 7 })) {
      chunks.push(chunk as Buffer);
      received += (chunk as Buffer).length;
      if (dropped === 0 && received > 1024 * 1024) dropped = await server.dropConnections();
    }
    expect(dropped).toBeGreaterThan(0);
    expect(Buffer.concat(chunks).equals(big.subarray(7))).toBe(true);
    expect(retries.length).toBeGreaterThanOrEqual(1);
    const at = Number(/ at byte (\d+)$/.exec(retries[0]?.operation ?? '')?.[1]);
    expect(retries[0]?.operation).toBe(`read ${bigPath} at byte ${at}`);
    expect(at).toBeGreaterThan(1024 * 1024); // resumed there, not from the start
  });

  it('resumes a read when the network aborts the connection mid-stream', async () => {
    const { loc, retries } = location();
    const chunks: Buffer[] = [];
    let received = 0;
    let reset = 0;
    for await (const chunk of loc.read(bigPath, { start: 3, end: big.length - 3 })) {
      chunks.push(chunk as Buffer);
      received += (chunk as Buffer).length;
      if (reset === 0 && received > 1024 * 1024) reset = await server.resetConnections();
    }
    expect(reset).toBeGreaterThan(0);
    expect(Buffer.concat(chunks).equals(big.subarray(3, big.length - 3))).toBe(true);
    expect(retries.length).toBeGreaterThanOrEqual(1);
    expect(String(retries[0]?.error)).toMatch(/ECONNABORTED|ECONNRESET|connection closed|No response/);
  });

  it('refuses to resume into a file that changed meanwhile, rather than splice two versions', async () => {
    const { loc } = location();
    const path = join(server.root, 'changing.bin');
    writeFileSync(path, big);
    let received = 0;
    const error = await thrown(
      (async () => {
        for await (const chunk of loc.read(path)) {
          received += (chunk as Buffer).length;
          if (received > 1024 * 1024 && received - (chunk as Buffer).length <= 1024 * 1024) {
            appendFileSync(path, 'more');
            await server.dropConnections();
          }
        }
      })(),
    );
    expect(String(error)).toMatch(
      /the file changed while it was read \(was size \d+, mtime \d+, now size \d+/,
    );
    expect(String(error)).toContain(path);
    expect(error).toMatchObject({ code: 'CHANGED' });
  });

  it('resumes a read when the server hangs mid-stream (keepalive gives up, a new connection reads on)', async () => {
    const { loc, retries } = location({ tuning: { keepaliveIntervalMs: 100, keepaliveCountMax: 2 } });
    const chunks: Buffer[] = [];
    let received = 0;
    let frozen = 0;
    try {
      for await (const chunk of loc.read(bigPath)) {
        chunks.push(chunk as Buffer);
        received += (chunk as Buffer).length;
        if (frozen === 0 && received > 2 * 1024 * 1024) frozen = await server.freezeConnections();
      }
    } finally {
      await server.dropConnections(); // the frozen ones (and the new one)
    }
    expect(frozen).toBeGreaterThan(0);
    expect(Buffer.concat(chunks).equals(big)).toBe(true);
    expect(retries.length).toBeGreaterThanOrEqual(1);
  });

  it('gives up after its retries when nothing listens, with the network error', async () => {
    const { loc, retries } = location({ retry: { ...FAST, retries: 2 } }, { port: 1 });
    const error = await thrown(loc.list('/x/*.csv'));
    expect(error).toMatchObject({ code: 'CONNECTION_LOST' });
    expect(String(error)).toMatch(
      new RegExp(
        `^SftpError: sftp://${server.user}@127\\.0\\.0\\.1:1: list /x/\\*\\.csv: .*ECONNREFUSED.* \\(gave up after 2 retries\\)$`,
      ),
    );
    expect(retries.map((r) => r.retry)).toEqual([1, 2]);
  });
});
