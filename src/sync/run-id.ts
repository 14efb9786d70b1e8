import { randomBytes } from 'node:crypto';

/** A run's id: `<feed>-<UTC timestamp>-<random>`, the same for in-process and fleet runs. */
export function newRunId(feed: string, now: number): string {
  const stamp = new Date(now)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${feed}-${stamp}-${randomBytes(3).toString('hex')}`;
}
