import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import { median } from './sandbox-process.js';

export interface Sample {
  firstByteMs: number;
  totalMs: number;
  cpuMs: number;
  bytes: number;
  status: number;
}

/** One GET over loopback: time to its first byte and to its end, this process's CPU meanwhile. */
export async function timed(url: string): Promise<Sample> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const res = await request(url);
  const firstByteMs = performance.now() - t0;
  const body = Buffer.from(await res.body.arrayBuffer());
  const totalMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return {
    firstByteMs,
    totalMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    bytes: body.length,
    status: res.statusCode,
  };
}

export const urlOf = (app: FastifyInstance): string => {
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
};

const fmt = (n: number) => n.toFixed(1);

/**
 * Each page `rounds` times, request by request alternated with the baseline's URL (one warm-up of
 * each first: JIT, script loading), then the medians as a table.
 */
export async function alternate(
  pages: readonly [label: string, url: string][],
  baselineUrl: string,
  rounds: number,
): Promise<void> {
  const results = new Map<string, Sample[]>([
    ['baseline', []],
    ...pages.map(([label]) => [label, []] as [string, Sample[]]),
  ]);
  for (const [, url] of pages) await timed(url);
  await timed(baselineUrl);
  for (let round = 0; round < rounds; round++) {
    for (const [label, url] of pages) {
      results.get('baseline')?.push(await timed(baselineUrl));
      const sample = await timed(url);
      if (sample.status !== 200) throw new Error(`${url}: HTTP ${sample.status}`);
      results.get(label)?.push(sample);
    }
  }
  console.log(`\nmedians of ${rounds} rounds (baseline ${rounds * pages.length} requests, alternated):`);
  console.log('page | first byte ms | total ms | CPU ms | KiB');
  for (const [label, samples] of results) {
    const mid = (pick: (s: Sample) => number) => fmt(median(samples.map(pick)));
    console.log(
      `${label} | ${mid((s) => s.firstByteMs)} | ${mid((s) => s.totalMs)} | ${mid((s) => s.cpuMs)} | ${fmt(median(samples.map((s) => s.bytes)) / 1024)}`,
    );
  }
}
