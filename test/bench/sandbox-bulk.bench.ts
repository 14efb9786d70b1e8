/**
 * Server CPU cost of one bulk create of 1000 transactions, and of one existence check of 1000 IDs.
 *
 * The sandbox runs in a CHILD process (sandbox-child.ts: what `erp-bridge sandbox` runs) so the client's
 * fetch/JSON work does not pollute the figure; its CPU is read from GET /_sandbox/stats (`cpu`,
 * process.cpuUsage()) before and after a series of sequential requests. Request bodies are built
 * before the clock starts. Each run starts from POST /_sandbox/reset, so every run sees the same
 * state; the figure reported is the median over runs of (server CPU / request).
 *
 *   npm run bench:sandbox                 # 5 runs x 200 requests
 *   BENCH_RUNS=3 BENCH_REQUESTS=50 npm run bench:sandbox
 *   BENCH_NODE_ARGS=--cpu-prof npm run bench:sandbox   # profile the sandbox (.cpuprofile in the repo root)
 */
import { json, median, startSandboxProcess } from './sandbox-process.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const ITEMS = 1000;
const TARGET_MS = 10;

const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
const sb = await startSandboxProcess(nodeArgs);

async function accessToken(): Promise<string> {
  const res = await fetch(`${sb.authUrl}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: sb.clientId,
      client_secret: sb.clientSecret,
    }),
  });
  return ((await json(res, 'token')) as { access_token: string }).access_token;
}

async function mainBankAccount(token: string): Promise<number> {
  const res = await fetch(`${sb.url}/bank-accounts`, {
    headers: { authorization: `Bearer ${token}`, 'x-account-id': '1001' },
  });
  const body = (await json(res, 'list bank accounts')) as { data: { id: number; externalId: string }[] };
  const main = body.data.find((b) => b.externalId === 'main');
  if (!main) throw new Error('default seed has no bank account "main" in account 1001');
  return main.id;
}

function bulkBodies(bankAccountId: number, run: number): string[] {
  return Array.from({ length: REQUESTS }, (_, r) =>
    JSON.stringify({
      bankAccountId,
      transactions: Array.from({ length: ITEMS }, (_, i) => ({
        externalId: `run${run}-req${r}-${i}`,
        bookingDate: '2026-03-15',
        valueDate: '2026-03-16',
        amount: -(i + 1) * 1.25,
        currency: 'EUR',
        purpose: `Invoice ${r}-${i} payment`,
        counterpartyName: 'Supplier GmbH',
        counterpartyIban: 'DE02120300000000202051',
      })),
    }),
  );
}

/** Half of the IDs exist (created by this run), half do not. */
function existsBodies(bankAccountId: number, run: number): string[] {
  return Array.from({ length: REQUESTS }, (_, r) =>
    JSON.stringify({
      bankAccountId,
      externalIds: Array.from({ length: ITEMS }, (_, i) =>
        i % 2 === 0 ? `run${run}-req${r}-${i}` : `missing-${r}-${i}`,
      ),
    }),
  );
}

/** Sends the bodies one after another; returns server CPU ms and wall ms per request. */
async function measure(
  path: string,
  bodies: string[],
  token: string,
  check: (body: unknown) => void,
): Promise<{ cpuMs: number; wallMs: number }> {
  const headers = {
    authorization: `Bearer ${token}`,
    'x-account-id': '1001',
    'content-type': 'application/json',
  };
  const cpuBefore = await sb.cpuMicros();
  const started = performance.now();
  for (const body of bodies)
    check(await json(await fetch(`${sb.url}${path}`, { method: 'POST', headers, body }), path));
  const wallMs = (performance.now() - started) / bodies.length;
  const cpuMs = (await sb.cpuMicros()) - cpuBefore;
  return { cpuMs: cpuMs / 1000 / bodies.length, wallMs };
}

const bulkRuns: { cpuMs: number; wallMs: number }[] = [];
const existsRuns: { cpuMs: number; wallMs: number }[] = [];
try {
  // Run 0 is a warm-up (JIT, lazy modules) and is not reported.
  for (let run = 0; run <= RUNS; run++) {
    await sb.reset();
    const token = await accessToken();
    const bankAccountId = await mainBankAccount(token);
    const creates = bulkBodies(bankAccountId, run);
    const checks = existsBodies(bankAccountId, run);
    const bulk = await measure('/bank-account-transactions/bulk', creates, token, (body) => {
      const created = (body as { createdCount?: number }).createdCount;
      if (created !== ITEMS) throw new Error(`bulk created ${created}, expected ${ITEMS}`);
    });
    const exists = await measure('/bank-account-transactions/exists', checks, token, (body) => {
      const found = (body as { data?: unknown[] }).data?.length;
      if (found !== ITEMS / 2) throw new Error(`exists found ${found}, expected ${ITEMS / 2}`);
    });
    if (run === 0) continue;
    bulkRuns.push(bulk);
    existsRuns.push(exists);
    process.stderr.write(
      `run ${run}: bulk ${bulk.cpuMs.toFixed(2)} ms CPU (${bulk.wallMs.toFixed(2)} ms wall), ` +
        `exists ${exists.cpuMs.toFixed(2)} ms CPU (${exists.wallMs.toFixed(2)} ms wall)\n`,
    );
  }
} finally {
  await sb.stop();
}

const report = (name: string, runs: { cpuMs: number; wallMs: number }[]) => {
  const cpu = median(runs.map((r) => r.cpuMs));
  const verdict = cpu < TARGET_MS ? 'OK' : 'OVER TARGET';
  const range = `${Math.min(...runs.map((r) => r.cpuMs)).toFixed(2)}..${Math.max(...runs.map((r) => r.cpuMs)).toFixed(2)}`;
  console.log(
    `${name.padEnd(34)} server CPU/request median ${cpu.toFixed(2)} ms (runs ${range}; ` +
      `wall ${median(runs.map((r) => r.wallMs)).toFixed(2)} ms)   target < ${TARGET_MS} ms: ${verdict}`,
  );
};
console.log(
  `sandbox bulk benchmark: ${RUNS} runs x ${REQUESTS} sequential requests, ${ITEMS} items each, node ${process.version}`,
);
report('bulk create, 1000 transactions', bulkRuns);
report('existence check, 1000 external IDs', existsRuns);
