import type { Redis } from 'ioredis';
import { within } from '../time/deadline.js';

/** One readiness check: resolves when its dependency works, rejects with what is wrong. */
export type ReadinessCheck = () => Promise<void>;

export interface Readiness {
  ready: boolean;
  /** Per check: "ok", or why it failed. */
  checks: Record<string, string>;
}

/** Redis answers PING. */
export const redisReachable =
  (redis: Redis): ReadinessCheck =>
  async () => {
    await redis.ping();
  };

/**
 * A service token can be had (the client's cached one while valid, so a probe costs no request
 * most of the time): the credentials are accepted and the authorization server is reachable.
 */
export const tokenObtainable =
  (client: { ensureToken(): Promise<void> }): ReadinessCheck =>
  () =>
    client.ensureToken();

/** Runs every check at once, each given at most `timeoutMs`; ready when all pass. */
export async function checkReadiness(
  checks: Readonly<Record<string, ReadinessCheck>>,
  timeoutMs: number,
): Promise<Readiness> {
  const results = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      try {
        await within(timeoutMs, name, check());
        return [name, 'ok'] as const;
      } catch (error) {
        return [name, error instanceof Error ? error.message : String(error)] as const;
      }
    }),
  );
  return { ready: results.every(([, result]) => result === 'ok'), checks: Object.fromEntries(results) };
}
