import { randomBytes } from 'node:crypto';

/** A run's id: `<feed>-<UTC timestamp>-<random>`, the same for in-process and fleet runs. */
export function newRunId(feed: string, now: number): string {
  const stamp = new Date(now)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${feed}-${stamp}-${randomBytes(3).toString('hex')}`;
}

/** When a run id was made (newRunId's timestamp, to the second); undefined for another shape. */
export function runIdTime(runId: string): number | undefined {
  const stamp = /-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z-[0-9a-f]+$/.exec(runId);
  if (!stamp) return undefined;
  const [, y, mo, d, h, mi, se] = stamp;
  return Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${se}Z`);
}
