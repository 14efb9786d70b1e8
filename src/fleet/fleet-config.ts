import { resolve } from 'node:path';
import * as z from 'zod';
import { parseEnv } from '../config/env.js';
import { secrets } from '../logging/secret-scrubber.js';

/**
 * Settings of the worker fleet, from the environment, validated at start. Every key is documented
 * in the README's configuration table; none of them is secret except a password inside REDIS_URL,
 * which is never logged.
 */
const FleetEnv = z.object({
  // Required: a fleet command that quietly took 127.0.0.1:6379 could queue runs in a Redis no
  // worker reads (or read another fleet's runs), and pass as success.
  REDIS_URL: z
    .url({
      protocol: /^rediss?$/,
      error: (issue) =>
        issue.input === undefined
          ? 'not set; the fleet commands need the Redis they share: REDIS_URL=redis://host:port[/db] (or rediss://…)'
          : 'expected redis://host:port[/db] or rediss://…',
    })
    // `redis://host:/0` parses as a URL with no port, which ioredis quietly turns into 6379: a
    // typo would then talk to whatever Redis listens there. A colon must be followed by a port.
    .refine((url) => !/^rediss?:\/\/(?:[^@/]*@)?(?:\[[^\]]*\]|[^:/]*):(?:\/|$)/.test(url), {
      error: 'the port after ":" is empty; expected redis://host:port[/db] (or no ":" for 6379)',
    }),
  /** Prefix of every BullMQ and erp-bridge key. For Redis Cluster use a hash tag: {erp-bridge}. */
  ERP_BRIDGE_QUEUE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9{}_.-]+$/, 'expected letters, digits, {, }, _, . or -')
    .default('erp-bridge'),
  /** The feed directory: jobs name feeds relative to it, and workers read feeds only from it. */
  ERP_BRIDGE_FEEDS_DIR: z.string().default('config/feeds'),
  /** How long run summaries and outcomes stay in Redis. */
  ERP_BRIDGE_RUN_RETENTION_DAYS: z.coerce.number().positive().default(30),
  /** How many later runs retry a file's transiently failed records before they stay failed. */
  ERP_BRIDGE_FAILED_RETRY_RUNS: z.coerce.number().int().nonnegative().default(3),
  /** SIGTERM/SIGINT: how long in-flight jobs may take before they are released to other workers. */
  ERP_BRIDGE_SHUTDOWN_GRACE_S: z.coerce.number().nonnegative().default(30),
  /** How long a tenant slot of a vanished worker stays taken. */
  ERP_BRIDGE_SLOT_LEASE_S: z.coerce.number().positive().default(30),
  /** How long a job lock lives without renewal: a killed worker's jobs are recovered after it. */
  ERP_BRIDGE_JOB_LOCK_S: z.coerce.number().positive().default(30),
});

export interface FleetConfig {
  redisUrl: string;
  prefix: string;
  /** Absolute path of the feed directory (ERP_BRIDGE_FEEDS_DIR, or --feeds of a command). */
  feedsDir: string;
  runRetentionMs: number;
  failedRetryRuns: number;
  shutdownGraceMs: number;
  slotLeaseMs: number;
  jobLockMs: number;
}

export function loadFleetConfig(env: NodeJS.ProcessEnv): FleetConfig {
  const e = parseEnv(FleetEnv, env, 'invalid fleet configuration:');
  // A Redis server's error text (or a message quoting the URL) must never carry the password.
  secrets.add(redisPassword(e.REDIS_URL));
  return {
    redisUrl: e.REDIS_URL,
    prefix: e.ERP_BRIDGE_QUEUE_PREFIX,
    feedsDir: resolve(e.ERP_BRIDGE_FEEDS_DIR),
    runRetentionMs: e.ERP_BRIDGE_RUN_RETENTION_DAYS * 86_400_000,
    failedRetryRuns: e.ERP_BRIDGE_FAILED_RETRY_RUNS,
    shutdownGraceMs: e.ERP_BRIDGE_SHUTDOWN_GRACE_S * 1000,
    slotLeaseMs: e.ERP_BRIDGE_SLOT_LEASE_S * 1000,
    jobLockMs: e.ERP_BRIDGE_JOB_LOCK_S * 1000,
  };
}

/** The password inside a redis:// URL, decoded; undefined without one. */
function redisPassword(url: string): string | undefined {
  const { password } = new URL(url);
  if (!password) return undefined;
  try {
    return decodeURIComponent(password);
  } catch {
    return password;
  }
}

/**
 * ERP_BRIDGE_SHUTDOWN_GRACE_S in milliseconds alone: how long an interrupted `sync` lets chunks in
 * flight settle, the same setting (and check) as the workers'.
 */
export function shutdownGraceMs(env: NodeJS.ProcessEnv): number {
  const grace = FleetEnv.pick({ ERP_BRIDGE_SHUTDOWN_GRACE_S: true });
  return parseEnv(grace, env, 'invalid configuration:').ERP_BRIDGE_SHUTDOWN_GRACE_S * 1000;
}
