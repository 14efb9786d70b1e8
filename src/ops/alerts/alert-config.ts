import * as z from 'zod';
import { parseEnv } from '../../config/env.js';

/** What decides a feed's health and where its notices go (README "Alerts"). */
export interface AlertConfig {
  /** A run whose rejected records exceed this share of its records makes the feed failing. */
  rejectedShare: number;
  /** A run reading fewer records than this share of the feed's recent median raises a warning. */
  dropShare: number;
  webhook?: WebhookConfig;
}

export interface WebhookConfig {
  /** Secret: may carry a token in its path or credentials; only its origin is ever logged. */
  url: string;
  /** Per attempt; also the longest a shutdown waits for notices still being delivered. */
  timeoutMs: number;
  /** Secret: sent as the Authorization header when set. */
  authorization?: string;
}

const share = (meaning: string) =>
  z.coerce
    .number({ error: `expected a number from 0 to 1 (${meaning})` })
    .min(0, `expected a number from 0 to 1 (${meaning})`)
    .max(1, `expected a number from 0 to 1 (${meaning})`);

// Messages never echo a value: the webhook URL and the Authorization value are secrets.
const AlertEnv = z.object({
  ERP_BRIDGE_ALERT_REJECTED_SHARE: share('e.g. 0.1 for 10 % of the records').default(0.1),
  ERP_BRIDGE_ALERT_DROP_SHARE: share('e.g. 0.5; 0 turns the rule off').default(0.5),
  ERP_BRIDGE_ALERT_WEBHOOK_URL: z
    .url({ protocol: /^https?$/, error: 'expected an http:// or https:// URL' })
    .optional(),
  ERP_BRIDGE_ALERT_WEBHOOK_TIMEOUT_S: z.coerce
    .number({ error: 'expected a number of seconds' })
    .positive('expected a number of seconds above 0')
    .default(10),
  ERP_BRIDGE_ALERT_WEBHOOK_AUTHORIZATION: z.string().optional(),
});

/** Reads the ERP_BRIDGE_ALERT_* variables; an invalid value is a ConfigError naming the variable. */
export function loadAlertConfig(env: NodeJS.ProcessEnv): AlertConfig {
  const e = parseEnv(AlertEnv, env, 'invalid alert configuration:');
  return {
    rejectedShare: e.ERP_BRIDGE_ALERT_REJECTED_SHARE,
    dropShare: e.ERP_BRIDGE_ALERT_DROP_SHARE,
    ...(e.ERP_BRIDGE_ALERT_WEBHOOK_URL
      ? {
          webhook: {
            url: e.ERP_BRIDGE_ALERT_WEBHOOK_URL,
            timeoutMs: e.ERP_BRIDGE_ALERT_WEBHOOK_TIMEOUT_S * 1000,
            ...(e.ERP_BRIDGE_ALERT_WEBHOOK_AUTHORIZATION
              ? { authorization: e.ERP_BRIDGE_ALERT_WEBHOOK_AUTHORIZATION }
              : {}),
          },
        }
      : {}),
  };
}
