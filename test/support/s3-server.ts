import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

/**
 * The account s3rver accepts. s3rver checks the access key id of a V4-signed request but not the
 * signature itself, so a wrong secret goes unnoticed there (AWS refuses it). Tests hand the
 * account to the location through the standard environment variables, as an operator would.
 */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

const HOST = '127.0.0.1';
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** One request as s3rver received it, for counting retries and checking resumed ranges. */
export interface S3Request {
  method: string;
  url: string;
  range?: string;
  ifMatch?: string;
}

export interface S3TestServer {
  /** `http://127.0.0.1:<port>`: the location's `endpoint`, with `forcePathStyle: true`. */
  endpoint: string;
  port: number;
  bucket: string;
  /** Every request the server has answered or is answering, in arrival order. */
  requests(): Promise<S3Request[]>;
  /** Writes an object directly (not through the location under test). */
  put(key: string, body: Buffer | string): Promise<void>;
  delete(key: string): Promise<void>;
  /**
   * Stops the server (its open connections are closed mid-answer) and starts it again on the same
   * port with the same store; the request log starts anew.
   */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * s3rver (an S3-compatible server in JavaScript, from npm: the only one the registries here offer)
 * in a child process on a free loopback port, its store in a temp dir, with one bucket. The client
 * code under test is the standard AWS SDK v3; see s3rver-main.ts for why a process of its own.
 */
export async function startS3Server(bucket = 'exports'): Promise<S3TestServer> {
  const directory = await mkdtemp(join(tmpdir(), 'erp-bridge-s3rver-'));
  let child: ChildProcess | undefined;
  const start = async (port: number) => {
    const proc = spawn(
      process.execPath,
      [
        '--openssl-legacy-provider',
        '--import',
        'tsx',
        'test/support/s3rver-main.ts',
        directory,
        bucket,
        String(port),
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = proc;
    return listeningPort(proc);
  };
  const stop = async () => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((resolve) => proc.once('exit', resolve));
    proc.kill('SIGTERM');
    await exited;
  };
  const killNow = () => child?.kill('SIGKILL');
  process.once('exit', killNow); // a crashed test run leaves no server behind
  const port = await start(0);
  const endpoint = `http://${HOST}:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: S3RVER_CREDENTIALS,
    // s3rver predates the SDK's default CRC checksums (and their aws-chunked bodies).
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });

  return {
    endpoint,
    port,
    bucket,
    requests: async () => {
      const response = await fetch(`${endpoint}/__requests`);
      return (await response.json()) as S3Request[];
    },
    put: async (key, body) => {
      const bytes = typeof body === 'string' ? Buffer.from(body) : body;
      await client.send(
        new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes, ContentLength: bytes.length }),
      );
    },
    delete: async (key) => {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
    restart: async () => {
      await stop();
      await start(port);
    },
    stop: async () => {
      process.off('exit', killNow);
      client.destroy();
      await stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** The port the child prints once listening; rejects with its stderr if it exits first. */
function listeningPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4_000);
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split('\n').find((l) => l.startsWith('{"port":'));
      if (line) resolve((JSON.parse(line) as { port: number }).port);
    });
    child.once('exit', (code) => reject(new Error(`s3rver exited (${code}) before listening: ${stderr}`)));
  });
}
