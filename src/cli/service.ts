import type { Logger } from 'pino';
import { type Clock, PartnerClient, type PartnerClientSettings } from '../client/index.js';
import { loadPartnerConfig } from '../config/partner-env.js';
import type { TenantGate } from '../gate/gate.js';
import { startSandbox } from '../sandbox/index.js';

export interface ServiceConnection {
  client: PartnerClient;
  /** Set when no PARTNER_API_URL was configured and an embedded sandbox serves the run. */
  sandboxUrl?: string;
  close(): Promise<void>;
}

/**
 * The client for this process. Without PARTNER_API_URL, an embedded sandbox is started in
 * process, so a new user sees the whole flow with one command. 429 pauses go through the gate,
 * per partner credentials: no request of those credentials starts until Retry-After has passed.
 */
export async function connectService(
  env: NodeJS.ProcessEnv,
  gate: TenantGate,
  clock: Clock,
  logger: Logger,
): Promise<ServiceConnection> {
  let settings: PartnerClientSettings;
  let closeSandbox = async () => {};
  let sandboxUrl: string | undefined;
  if (!env.PARTNER_API_URL) {
    const sandbox = await startSandbox();
    settings = {
      baseUrl: sandbox.url,
      authUrl: sandbox.authUrl,
      clientId: sandbox.clientId,
      clientSecret: sandbox.clientSecret,
    };
    sandboxUrl = sandbox.url;
    closeSandbox = () => sandbox.close();
    logger.warn(
      { sandbox: sandbox.url },
      'PARTNER_API_URL is not set: syncing into an embedded sandbox (set PARTNER_API_URL, PARTNER_AUTH_URL, PARTNER_CLIENT_ID and PARTNER_CLIENT_SECRET for the real service)',
    );
  } else {
    settings = loadPartnerConfig(env);
  }
  const scope = `partner:${settings.clientId}`;
  const client = new PartnerClient(settings, {
    logger,
    clock,
    hooks: {
      beforeRequest: (start) => gate.waitUntilOpen(scope, start.signal),
      onRateLimited: (info) => {
        logger.warn(
          { operation: info.operation, tenant: info.accountId, retryAfterMs: info.retryAfterMs },
          'rate limited: pausing every request of these credentials',
        );
        void gate.pause(scope, clock.now() + info.retryAfterMs);
      },
      onAlert: (alert) => logger.error({ alert: true, ...alert }, 'request failed after every retry'),
    },
  });
  return {
    client,
    ...(sandboxUrl ? { sandboxUrl } : {}),
    close: async () => {
      await client.close();
      await closeSandbox();
    },
  };
}
