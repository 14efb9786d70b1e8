/**
 * CPU readings of the processes a benchmark runs beside it (workers, Redis), so it can say what one
 * record costs in CPU across the whole system and so what rate the machine's cores allow.
 */
import { readFile } from 'node:fs/promises';
import { Redis } from 'ioredis';

/** CPU (ms) of a process from /proc (Linux; clock ticks of 10 ms); NaN where there is no /proc. */
export async function processCpuMs(pid: number | undefined): Promise<number> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which may hold spaces: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** A Redis server's CPU (ms) so far, from INFO cpu. */
export async function redisCpuMs(url: string): Promise<number> {
  const redis = new Redis(url, { maxRetriesPerRequest: null });
  const info = await redis.info('cpu');
  await redis.quit();
  const field = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1]);
  return (field('used_cpu_user') + field('used_cpu_sys')) * 1000;
}
