import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { type ExportSource, FEEDS_DIR, onSftp, type SftpServer } from './export-source.js';
import { ContainerLab } from './lab.js';
import { feedYaml, type LabFile, TENANTS, writeBatch } from './lab-exports.js';
import { podmanOk, pollUntil } from './podman.js';
import { startSftpServer } from './sftp-server.js';

/** The checkout whose Dockerfile is built (wherever vitest was started from). */
const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');

/** The image under test, built from the worktree's Dockerfile by the test itself. */
export const IMAGE = 'localhost/erp-bridge:local';
const REDIS_IMAGE = 'docker.io/library/redis:7-alpine';

/**
 * Every erp-bridge container's environment: Redis and the sandbox by their names on the lab
 * network, short job locks and slot leases (a killed worker's work comes back within seconds) and
 * a shutdown grace well inside `podman stop`'s timeout. The sandbox's demo credentials are no secret.
 */
const FLEET_ENV = {
  REDIS_URL: 'redis://redis:6379',
  ERP_BRIDGE_FEEDS_DIR: FEEDS_DIR,
  ERP_BRIDGE_JOB_LOCK_S: '4',
  ERP_BRIDGE_SLOT_LEASE_S: '4',
  ERP_BRIDGE_SHUTDOWN_GRACE_S: '10',
  PARTNER_API_URL: 'http://sandbox:4010/v2',
  PARTNER_AUTH_URL: 'http://sandbox:4010',
  PARTNER_CLIENT_ID: 'sandbox-client',
  PARTNER_CLIENT_SECRET: 'sandbox-secret',
};

/** `podman stop`'s timeout for a worker: longer than its shutdown grace plus closing slack. */
export const STOP_TIMEOUT_S = 30;

const RunLine = z.object({
  runId: z.string(),
  feed: z.string(),
  file: z.string(),
  accountId: z.number(),
  state: z.string(),
  counts: z
    .object({
      created: z.number(),
      updated: z.number(),
      skipped: z.number(),
      rejected: z.number(),
      failed: z.number(),
    })
    .optional(),
});
export type RunLine = z.infer<typeof RunLine>;

const SandboxDump = z.object({ count: z.number(), data: z.array(z.object({ externalId: z.string() })) });

/** Times of the slow steps, for the report. */
export const timings: Record<string, number> = {};

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await work();
  } finally {
    timings[label] = Date.now() - started;
  }
}

/**
 * The fleet of the container test: Redis, the sandbox (the same image's `sandbox` command), the
 * SFTP server, workers and one-shot CLI containers, each its own container on the lab's network.
 */
export class FleetLab {
  readonly lab = new ContainerLab();
  private readonly host = mkdtempSync(join(tmpdir(), 'erp-bridge-container-lab-'));
  private readonly feedsDir = join(this.host, 'feeds');
  private readonly workers: string[] = [];
  private batches = 0;
  source!: ExportSource;
  sftp!: SftpServer;

  async open(): Promise<void> {
    await timed('image build (podman build --format docker)', () =>
      podmanOk(['build', '--format', 'docker', '-t', IMAGE, REPO_ROOT]),
    );
    await this.lab.open();
    const redis = await this.lab.create('redis', REDIS_IMAGE, {
      // The lab's stand-in is Debian's redis-server, whose protected mode refuses other hosts
      // without a password (the official image turns it off when it is built): off, as in its CMD.
      command: ['redis-server', '--protected-mode', 'no', '--maxmemory-policy', 'noeviction'],
    });
    await this.lab.start(redis);
    const sandbox = await this.lab.create('sandbox', IMAGE, {
      // Slow answers: a run lasts long enough for a worker to be killed in the middle of it.
      command: ['sandbox', '--host', '0.0.0.0', '--port', '4010', '--latency', '150'],
    });
    await this.lab.start(sandbox);
    this.sftp = await timed('SFTP server image build and start', () => startSftpServer(this.lab));
    this.source = onSftp(this.lab, this.sftp);
    // With an empty exports/ folder, so that it exists in each container for batches to go into.
    mkdirSync(join(this.feedsDir, 'exports'), { recursive: true });
    for (const tenant of TENANTS)
      writeFileSync(
        join(this.feedsDir, `${tenant.feed}.yaml`),
        feedYaml(tenant, this.source.sourceKeys(tenant.feed)),
      );
    await pollUntil('the sandbox to answer', 60_000, async () =>
      (await this.sandboxGet('/_sandbox/stats')) === undefined ? undefined : true,
    );
  }

  /** An erp-bridge container: the feed files and, in the stand-in mode, the exports, copied in. */
  private async erpBridge(role: string, command: readonly string[]): Promise<string> {
    const name = await this.lab.create(role, IMAGE, { ...this.source.hostOptions, env: FLEET_ENV, command });
    await this.lab.copyInto(name, this.feedsDir, FEEDS_DIR);
    await this.source.provision(name);
    return name;
  }

  async startWorker(role: string): Promise<string> {
    const name = await this.erpBridge(role, ['worker', '--log-level', 'debug', '--concurrency', '4']);
    await this.lab.start(name);
    this.workers.push(name);
    return name;
  }

  /** A new batch of exports for every tenant, put where the fleet reads it. */
  async publishBatch(files: number, rows: number): Promise<LabFile[]> {
    const batch = String.fromCharCode(97 + this.batches++);
    const dir = join(this.host, `batch-${batch}`);
    const written = writeBatch(dir, batch, files, rows);
    await this.source.publish(dir, this.workers);
    return written;
  }

  /** `erp-bridge enqueue` for every tenant's feed in a one-shot container; the run ids it printed. */
  async enqueue(): Promise<string[]> {
    const feeds = TENANTS.map((t) => `${FEEDS_DIR}/${t.feed}.yaml`);
    const name = await this.erpBridge(`enqueue-${this.batches}`, ['enqueue', ...feeds]);
    const result = await this.lab.runToEnd(name);
    if (result.code !== 0) throw new Error(`enqueue exited ${result.code}: ${result.stdout}${result.stderr}`);
    return [...result.stdout.matchAll(/enqueued \(new\) as run (\S+)/g)].map((m) => String(m[1]));
  }

  /** A fleet CLI command (`runs`, `report`) in a one-shot container; its stdout. */
  private async cli(command: readonly string[]): Promise<string> {
    const name = await this.erpBridge(`${command[0]}-${Date.now()}`, command);
    const result = await this.lab.runToEnd(name);
    await podmanOk(['rm', name]);
    if (result.code !== 0) throw new Error(`${command.join(' ')} exited ${result.code}: ${result.stderr}`);
    return result.stdout;
  }

  /** A run's summary (`erp-bridge report <runId> --format json`): why a run did not complete. */
  async summary(runId: string): Promise<string> {
    return this.cli(['report', runId, '--format', 'json']);
  }

  /** `erp-bridge runs --json` in a one-shot container. */
  async runs(): Promise<RunLine[]> {
    return (await this.cli(['runs', '--json', '--limit', '500']))
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => RunLine.parse(JSON.parse(line)));
  }

  /** Polls `runs` until every one of `runIds` has ended; returns them. */
  async finished(runIds: readonly string[], timeoutMs: number): Promise<RunLine[]> {
    let last: RunLine[] = [];
    return pollUntil(
      `runs ${runIds.join(', ')} to end`,
      timeoutMs,
      async () => {
        last = (await this.runs()).filter((r) => runIds.includes(r.runId));
        return last.length === runIds.length && last.every((r) => r.state !== 'running') ? last : undefined;
      },
      () => `Last seen: ${JSON.stringify(last)}`,
    );
  }

  /** A GET on the sandbox's admin API, from inside its container (it listens there only). */
  async sandboxGet(path: string): Promise<unknown> {
    const script = `fetch('http://127.0.0.1:4010${path}').then((r) => r.text()).then((t) => process.stdout.write(t))`;
    try {
      return JSON.parse(await this.lab.exec(this.lab.name('sandbox'), ['node', '-e', script]));
    } catch {
      return undefined;
    }
  }

  /** Every transaction the sandbox holds for an account: its externalIds. */
  async sandboxExternalIds(accountId: number): Promise<string[]> {
    const dump = SandboxDump.parse(await this.sandboxGet(`/_sandbox/accounts/${accountId}/transactions`));
    return dump.data.map((record) => record.externalId);
  }

  async close(): Promise<void> {
    await this.lab.cleanup();
    rmSync(this.host, { recursive: true, force: true });
  }
}
