import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFaultInjector } from '../../../src/sandbox/faults.js';
import { withSandbox } from '../../support/sandbox.js';
import { adminHelpers } from './admin-fixture.js';
import type { SandboxFixture } from './error-rows/types.js';

let sb: SandboxFixture;
let a: ReturnType<typeof adminHelpers>;
let token: string;

beforeAll(async () => {
  sb = await withSandbox();
  a = adminHelpers(sb);
});
afterAll(() => sb.close());
beforeEach(async () => {
  await a.admin('POST', '/reset');
  token = await sb.token();
});

const putFaults = async (config: unknown) => {
  const res = await a.admin('PUT', '/faults', config);
  if (res.status !== 200) throw new Error(`PUT /faults: ${res.status} ${JSON.stringify(res.body)}`);
};

describe('fault injection end to end', () => {
  it('commit-then-500: the write is applied although the answer is 500; the replay skips it', async () => {
    await putFaults({ script: [{ op: 'createTransactionsBulk', fault: 'commit-then-500' }] });
    const items = a.transactions(3, 'c500');
    const first = await a.bulk(token, items);
    expect(first.status).toBe(500);
    expect(first.body).toMatchObject({ error: 'INTERNAL_ERROR' });
    expect((await a.storedExternalIds()).sort()).toEqual(['c500-0', 'c500-1', 'c500-2']);

    const replay = await a.bulk(token, items);
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ createdCount: 0, skippedCount: 3 });
    expect(await a.storedExternalIds()).toHaveLength(3);
  });

  it('commit-then-reset: the connection drops after the write was applied', async () => {
    await putFaults({ commitThenFail: { rate: 1, mode: 'reset', ops: ['createTransactionsBulk'] } });
    expect((await a.bulk(token, a.transactions(2, 'cr'))).status).toBe('dropped');
    expect((await a.storedExternalIds()).sort()).toEqual(['cr-0', 'cr-1']);
    const stats = await a.stats();
    expect(stats.requests.createTransactionsBulk).toEqual({ reset: 1 });
    expect(stats.faultsInjected).toEqual({ 'commit-then-reset': 1 });
  });

  it('reset before answering: the connection drops and nothing is applied', async () => {
    await putFaults({ script: [{ op: 'createTransactionsBulk', fault: 'reset' }] });
    expect((await a.bulk(token, a.transactions(2, 'r'))).status).toBe('dropped');
    expect(await a.storedExternalIds()).toEqual([]);
    expect((await a.bulk(token, a.transactions(2, 'r'))).status).toBe(200);
    expect(await a.storedExternalIds()).toHaveLength(2);
  });

  it('a scripted 500 burst fails exactly N requests, then the write goes through once', async () => {
    await putFaults({ script: [{ op: 'createTransactionsBulk', fault: '500', times: 3 }] });
    const items = a.transactions(1, 'burst');
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await a.bulk(token, items)).status);
    expect(statuses).toEqual([500, 500, 500, 200]);
    expect(await a.storedExternalIds()).toEqual(['burst-0']);
    expect((await a.stats()).requests.createTransactionsBulk).toEqual({ '500': 3, '200': 1 });
  });

  it('429 from the per-partner bucket carries Retry-After and refills by the sandbox clock', async () => {
    await putFaults({ rateLimit: { capacity: 2, refillPerSecond: 0.25, ops: ['verifyAuth'] } });
    const verify = () => sb.call('GET', '/authentication/verify-auth', { account: 1001, token });
    expect((await verify()).status).toBe(200);
    expect((await verify()).status).toBe(200);
    const limited = await verify();
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ error: 'RATE_LIMITED' });
    expect(limited.headers.get('retry-after')).toBe('4');
    await a.admin('POST', '/clock', { advanceMs: 4000 });
    expect((await verify()).status).toBe(200);
  });

  it('latency overlaps concurrent requests, which the stats see per account', async () => {
    await putFaults({ latency: { ms: 150, ops: ['verifyAuth'] } });
    const started = performance.now();
    const results = await Promise.all(
      [1, 2, 3, 4].map(() => sb.call('GET', '/authentication/verify-auth', { account: 1001, token })),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
    expect((await a.stats()).maxConcurrentByAccount['1001']).toBe(4);
  });

  it('replays the same random faults for the same seed', async () => {
    const config = { seed: 11, fail500: { rate: 0.5, ops: ['verifyAuth'] } };
    const sample = async () => {
      await putFaults(config);
      const out: number[] = [];
      for (let i = 0; i < 16; i++) {
        out.push((await sb.call('GET', '/authentication/verify-auth', { account: 1001, token })).status);
      }
      return out;
    };
    const first = await sample();
    expect(first).toContain(500);
    expect(first).toContain(200);
    expect(await sample()).toEqual(first);
  });
});

describe('/_sandbox/faults', () => {
  it('returns the normalised config and refuses a bad one with 400 naming the field', async () => {
    await putFaults({ fail500: { rate: 0.1 } });
    expect((await a.admin('GET', '/faults')).body).toEqual({
      seed: 1,
      fail500: { rate: 0.1, burst: 1 },
      script: [],
    });
    const bad = await a.admin('PUT', '/faults', { fail500: { rate: 1.5 }, latency: { ms: -1 } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'INVALID_REQUEST' });
    expect((bad.body as { message: string }).message).toMatch(/fail500\.rate/);
    expect((bad.body as { message: string }).message).toMatch(/latency\.ms/);
    expect((await a.admin('PUT', '/faults', '{nope')).status).toBe(400);
    // A refused config leaves the running one in place.
    expect((await a.admin('GET', '/faults')).body).toMatchObject({ fail500: { rate: 0.1 } });
  });

  it('POST /_sandbox/reset restores the start-up fault config', async () => {
    const started = await withSandbox({
      faults: createFaultInjector({ script: [{ op: 'verifyAuth', fault: '500', times: 1 }] }),
    });
    try {
      const h = adminHelpers(started);
      const verify = () => started.call('GET', '/authentication/verify-auth', { account: 1001 });
      expect((await verify()).status).toBe(500);
      expect((await verify()).status).toBe(200);
      await h.admin('PUT', '/faults', { fail500: { rate: 1, ops: ['verifyAuth'] } });
      expect((await verify()).status).toBe(500);
      await h.admin('POST', '/reset');
      expect((await h.admin('GET', '/faults')).body).toMatchObject({
        script: [{ op: 'verifyAuth', fault: '500' }],
      });
      expect((await verify()).status).toBe(500);
      expect((await verify()).status).toBe(200);
    } finally {
      await started.close();
    }
  });
});
