import type { Logger } from 'pino';
import {
  type ClientHooks,
  combineHooks,
  PartnerClient,
  type PartnerClientSettings,
} from '../client/index.js';
import { loadPartnerConfig } from '../config/partner-env.js';
import { gateHooks, partnerScope } from '../gate/client-hooks.js';
import type { ScopePauses } from '../gate/gate.js';
import type { Clock } from '../time/clock.js';

export interface ServiceConnection {
  client: PartnerClient;
  /** Set when an embedded sandbox serves the run (`sync --sandbox`). */
  sandboxUrl?: string;
  /** What the run writes to, for summaries and reports: the service's base URL or "embedded sandbox". */
  target: string;
  close(): Promise<void>;
}

/** The target name of runs against the embedded sandbox (summaries, reports, `runs`). */
export const EMBEDDED_SANDBOX = 'embedded sandbox';

/**
 * The client for this process. With `embeddedSandbox` (only `sync --sandbox` asks for it), an
 * embedded sandbox is started in process, so a new user sees the whole flow with one command;
 * otherwise the PARTNER_* configuration must be complete (never a silent fallback). 429 pauses go through the gate,
 * per partner credentials: no request of those credentials starts until Retry-After has passed.
 */
export async function connectService(
  env: NodeJS.ProcessEnv,
  gate: ScopePauses,
  clock: Clock,
  logger: Logger,
  options: {
    /** Only on an explicit request (`sync --sandbox`); fleet processes never start one. */
    embeddedSandbox: boolean;
    /** More listeners besides the gate's (metrics). */
    hooks?: ClientHooks;
  } = { embeddedSandbox: false },
): Promise<ServiceConnection> {
  let settings: PartnerClientSettings;
  let closeSandbox = async () => {};
  let sandboxUrl: string | undefined;
  if (options.embeddedSandbox) {
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
      '--sandbox: syncing into an embedded sandbox; nothing reaches the real service (PARTNER_* settings are ignored)',
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
    target: sandboxUrl ? EMBEDDED_SANDBOX : settings.baseUrl,
    close: async () => {
      await client.close();
      await closeSandbox();
    },
  };
}
