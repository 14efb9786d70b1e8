import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { LocationConfig } from '../../src/sources/locations/location-config.js';
import { onSftp, SFTP_EXPORTS_DIR, SFTP_KEY_ENV } from './support/export-source.js';
import { FleetLab, type RunLine, STOP_TIMEOUT_S, timings } from './support/fleet-lab.js';
import { type LabFile, TENANTS } from './support/lab-exports.js';
import { podman, pollUntil } from './support/podman.js';
import { whyPodmanCannotRun } from './support/preflight.js';
import { SFTP_IMAGE } from './support/sftp-server.js';

/**
 * Issue 14 point 6: the image and a fleet that spans hosts, for real, in podman. Each container
 * stands for a host on one network: Redis, the sandbox (the partner API simulator, from the same
 * image), an SFTP server, two workers and one-shot CLI containers (enqueue, runs). No container
 * shares a volume with another. Run with `npm run test:containers` (test/containers/run.ts says why
 * it skips when podman cannot run); never part of `npm test`.
 */
const cannotRun = await whyPodmanCannotRun();
const fleet = new FleetLab();
/** What the run saw, printed at the end with the timings (for the README's figures). */
const figures: string[] = [];

/** How many log lines of a worker say it started syncing a chunk. */
async function chunksSynced(container: string): Promise<number> {
  return (await fleet.lab.logs(container)).split('tenant slot taken: chunk syncing').length - 1;
}

/** Every tenant's records in the sandbox are exactly the files' rows: none missing, none twice. */
async function expectExactlyOnce(files: readonly LabFile[]): Promise<void> {
  for (const tenant of TENANTS) {
    const expected = files.filter((f) => f.tenant === tenant).flatMap((f) => f.externalIds);
    const batchPrefixes = new Set(expected.map((id) => id.slice(0, id.lastIndexOf('-'))));
    const held = (await fleet.sandboxExternalIds(tenant.accountId)).filter((id) =>
      batchPrefixes.has(id.slice(0, id.lastIndexOf('-'))),
    );
    expect(held.length, `${tenant.feed}: records in the sandbox`).toBe(expected.length);
    expect([...held].sort()).toEqual([...expected].sort());
  }
}

/** One run per file, ended `completed`, each row counted once and none rejected or failed. */
async function expectRunsComplete(runs: readonly RunLine[], files: readonly LabFile[]): Promise<void> {
  expect(runs).toHaveLength(files.length);
  for (const file of files) {
    const run = runs.find((r) => r.feed === file.tenant.feed && r.file.endsWith(`/${file.name}`));
    expect(run, `the run of ${file.tenant.feed}/${file.name}`).toBeDefined();
    // Otherwise the run's summary says why (its stopReason, first errors).
    const why = run?.state === 'completed' ? '' : await fleet.summary(run?.runId ?? '');
    expect(run?.state, why).toBe('completed');
    const c = run?.counts;
    expect(c?.rejected).toBe(0);
    expect(c?.failed).toBe(0);
    expect((c?.created ?? 0) + (c?.updated ?? 0) + (c?.skipped ?? 0)).toBe(file.externalIds.length);
  }
}

describe.skipIf(cannotRun !== undefined)('the fleet in podman (exports only on the SFTP server)', () => {
  let worker1 = '';
  let worker2 = '';

  beforeAll(async () => {
    await fleet.open();
    worker1 = await fleet.startWorker('worker-1');
    worker2 = await fleet.startWorker('worker-2');
  });

  afterAll(async () => {
    await fleet.close();
    const lines = Object.entries(timings).map(([step, ms]) => `  ${step}: ${(ms / 1000).toFixed(1)} s`);
    console.log(`container lab timings:\n${lines.join('\n')}\n${figures.join('\n')}`);
  });

  it('runs the worker as a non-root user, and its HEALTHCHECK turns healthy', async () => {
    for (const worker of [worker1, worker2]) {
      expect((await fleet.lab.exec(worker, ['id', '-u'])).trim()).not.toBe('0');
      // podman has no systemd timer here to run the check on its interval: run it as the timer would.
      await pollUntil(
        `${worker}'s health check to pass`,
        60_000,
        async () => ((await podman(['healthcheck', 'run', worker])).code === 0 ? true : undefined),
        () => 'podman healthcheck run kept failing',
      );
      expect(await fleet.lab.inspect(worker, '{{.State.Health.Status}}')).toBe('healthy');
    }
  });

  it('serves files over SFTP only to the lab key, under the pinned host key', async () => {
    const server = fleet.sftp.container;
    await fleet.lab.exec(server, [
      'sh',
      '-c',
      `mkdir -p ${SFTP_EXPORTS_DIR}/probe && echo probe > ${SFTP_EXPORTS_DIR}/probe/probe.csv && chown -R erp:erp ${SFTP_EXPORTS_DIR}`,
    ]);
    const hostPublicKey = (await fleet.lab.exec(server, ['cat', '/etc/ssh/ssh_host_ed25519_key.pub'])).trim();
    // A client on another container: the user key from the podman secret, the host key pinned.
    const client = (role: string, knownHost: string) =>
      fleet.lab.create(role, SFTP_IMAGE, {
        secretEnv: { [fleet.sftp.keySecret]: SFTP_KEY_ENV },
        env: { KNOWN_HOST: knownHost },
        entrypoint: 'sh',
        command: [
          '-c',
          `printf '%s\\n' "$${SFTP_KEY_ENV}" > /tmp/key && chmod 600 /tmp/key && printf 'sftp %s\\n' "$KNOWN_HOST" > /tmp/known_hosts && ` +
            `echo 'ls -1 ${SFTP_EXPORTS_DIR}/probe' | sftp -i /tmp/key -o UserKnownHostsFile=/tmp/known_hosts -o StrictHostKeyChecking=yes -b - erp@sftp`,
        ],
      });
    const pinned = await fleet.lab.runToEnd(await client('sftp-client', hostPublicKey));
    expect(pinned.code, pinned.stdout + pinned.stderr).toBe(0);
    expect(pinned.stdout).toContain(`${SFTP_EXPORTS_DIR}/probe/probe.csv`);
    // Another host key in known_hosts (as after a server swap): the client refuses.
    const otherKey = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl';
    const swapped = await fleet.lab.runToEnd(await client('sftp-client-swapped', otherKey));
    expect(swapped.code).not.toBe(0);
    expect(swapped.stderr).toMatch(/Host key verification failed|REMOTE HOST IDENTIFICATION HAS CHANGED/);
  });

  it('writes SFTP feed keys that source.location accepts, pinning the server’s real host key', () => {
    // The feeds' keys, checked against the location schema.
    const source = parse(onSftp(fleet.lab, fleet.sftp).sourceKeys('lab-north').join('\n')) as {
      location: unknown;
      path: string;
    };
    expect(LocationConfig.parse(source.location)).toEqual({
      type: 'sftp',
      host: 'sftp',
      port: 22,
      user: 'erp',
      privateKeyEnv: SFTP_KEY_ENV,
      hostKey: fleet.sftp.hostKey,
    });
    expect(source.path).toBe(`${SFTP_EXPORTS_DIR}/lab-north/tx-*.csv`);
  });

  it('syncs several files of several tenants exactly once across two workers with no volume in common', async () => {
    const files = await fleet.publishBatch(3, 1_500);
    const runIds = await fleet.enqueue();
    expect(runIds).toHaveLength(files.length);
    const runs = await fleet.finished(runIds, 240_000);
    await expectRunsComplete(runs, files);
    // Nothing was there before: every row was created, none skipped.
    for (const run of runs) expect(run.counts?.created).toBe(1_500);
    await expectExactlyOnce(files);
    // Both workers synced chunks: the work really spread over two "hosts".
    expect(await chunksSynced(worker1)).toBeGreaterThan(0);
    expect(await chunksSynced(worker2)).toBeGreaterThan(0);
    for (const worker of [worker1, worker2]) {
      const mounts = await fleet.lab.inspect(worker, '{{len .Mounts}}');
      expect(mounts, `${worker} has no volume`).toBe('0');
      // No erp-bridge container holds an export file: they are on the server only.
      expect(await fleet.lab.exec(worker, ['find', '/app', '/tmp', '-name', 'tx-*.csv'])).toBe('');
    }
  });

  it('finishes a killed worker’s runs on the other worker, still exactly once', async () => {
    const before1 = await chunksSynced(worker1);
    const files = await fleet.publishBatch(3, 3_000);
    const total = files.reduce((n, f) => n + f.externalIds.length, 0);
    const runIds = await fleet.enqueue();
    expect(runIds).toHaveLength(files.length);
    // Mid-run: worker 1 has synced chunks of this batch and the batch is not all in the sandbox.
    const ids = new Set(files.flatMap((f) => f.externalIds));
    const inSandbox = async () => {
      let n = 0;
      for (const tenant of TENANTS)
        for (const id of await fleet.sandboxExternalIds(tenant.accountId)) if (ids.has(id)) n++;
      return n;
    };
    await pollUntil('worker 1 to sync chunks of the batch', 120_000, async () =>
      (await chunksSynced(worker1)) > before1 ? true : undefined,
    );
    await podman(['kill', worker1]);
    const atKill = await inSandbox();
    expect(atKill, 'records in the sandbox when worker 1 was killed').toBeLessThan(total);
    expect(await fleet.lab.inspect(worker1, '{{.State.Running}}')).toBe('false');
    const after2 = await chunksSynced(worker2);

    const runs = await fleet.finished(runIds, 300_000);
    const replayed = runs.reduce((n, r) => n + (r.counts?.skipped ?? 0), 0);
    figures.push(
      `kill: ${atKill} of ${total} records in the sandbox at the kill; ${replayed} replayed (skipped)`,
    );
    await expectRunsComplete(runs, files);
    await expectExactlyOnce(files);
    expect(await chunksSynced(worker2), 'worker 2 synced chunks after the kill').toBeGreaterThan(after2);
  });

  it('stops a worker gracefully on podman stop (SIGTERM) mid-run: exit code 0; a third worker finishes, exactly once', async () => {
    const worker3 = await fleet.startWorker('worker-3');
    const before2 = await chunksSynced(worker2);
    const files = await fleet.publishBatch(2, 3_000);
    const runIds = await fleet.enqueue();
    await pollUntil('worker 2 to sync chunks of the batch', 120_000, async () =>
      (await chunksSynced(worker2)) > before2 ? true : undefined,
    );
    const stopped = await podman(['stop', '-t', String(STOP_TIMEOUT_S), worker2]);
    expect(stopped.code, stopped.stderr).toBe(0);
    // 0: the worker's exit after a clean shutdown (worker-run.ts); 137 would mean podman killed it.
    const logs = await fleet.lab.logs(worker2);
    // The worker's own log lines in the message: a 137 says only that podman gave up waiting.
    expect(await fleet.lab.inspect(worker2, '{{.State.ExitCode}}'), logs.slice(-4000)).toBe('0');
    expect(logs).toContain('shutting down: no new jobs, finishing in-flight ones');
    expect(logs).toContain('"msg":"worker stopped"');
    // Warnings and errors of the shutdown, printed with the timings (JSON lines: level >= 40).
    const loud = logs.split('\n').filter((line) => /"level":(4|5|6)\d/.test(line));
    figures.push(
      `stop: worker 2 logged ${loud.length} warnings/errors`,
      ...loud.map((l) => `  ${l.slice(0, 400)}`),
    );

    const runs = await fleet.finished(runIds, 300_000);
    await expectRunsComplete(runs, files);
    await expectExactlyOnce(files);
    expect(await chunksSynced(worker3), 'worker 3 synced chunks').toBeGreaterThan(0);
  });
});

if (cannotRun !== undefined) it.skip(`podman cannot run: ${cannotRun}`, () => {});
