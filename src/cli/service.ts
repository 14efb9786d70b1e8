import type { Logger } from 'pino';
import {
  type ClientHooks,
  type Clock,
  combineHooks,
  PartnerClient,
  type PartnerClientSettings,
} from '../client/index.js';
import { loadPartnerConfig } from '../config/partner-env.js';
import { gateHooks, partnerScope } from '../gate/client-hooks.js';
import type { TenantGate } from '../gate/gate.js';

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
  options: {
    /** Fleet processes share one service: they never start a sandbox of their own. */
    embeddedSandbox: boolean;
    /** More listeners besides the gate's (metrics). */
    hooks?: ClientHooks;
  } = { embeddedSandbox: true },
): Promise<ServiceConnection> {
  let settings: PartnerClientSettings;
  let closeSandbox = async () => {};
  let sandboxUrl: string | undefined;
  if (!env.PARTNER_API_URL && options.embeddedSandbox) {
    // Loaded only when needed: a run against the real service never loads the simulator.
    const { startSandbox } = await import('../sandbox/index.js');
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
  const client = new PartnerClient(settings, {
    logger,
    clock,
    hooks: combineHooks(gateHooks(gate, partnerScope(settings.clientId), clock, logger), options.hooks ?? {}),
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
