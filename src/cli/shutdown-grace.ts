import { ConfigError } from '../config/errors.js';

/** Default of ERP_BRIDGE_SHUTDOWN_GRACE_S, the same as the workers' (src/queue/fleet-config.ts). */
const DEFAULT_GRACE_S = 30;

/**
 * How long an interrupted `sync` lets chunks in flight settle before aborting their requests:
 * ERP_BRIDGE_SHUTDOWN_GRACE_S, the setting workers use for the same purpose.
 */
export function shutdownGraceMs(env: NodeJS.ProcessEnv): number {
  const text = env.ERP_BRIDGE_SHUTDOWN_GRACE_S?.trim();
  if (!text) return DEFAULT_GRACE_S * 1000;
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds < 0)
    throw new ConfigError('invalid configuration', [
      `ERP_BRIDGE_SHUTDOWN_GRACE_S: expected a number of seconds >= 0 (default ${DEFAULT_GRACE_S})`,
    ]);
  return seconds * 1000;
}
