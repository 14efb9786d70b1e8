import { readFile } from 'node:fs/promises';
import type { Logger } from 'pino';
import { parse as parseYaml } from 'yaml';
import { PartnerClient } from '../../client/index.js';
import { ConfigError } from '../../config/errors.js';
import { startExampleParent } from '../../embed/server/index.js';
import {
  createFaultInjector,
  type FaultConfig,
  parseFaultConfig,
  parseSeed,
  type SandboxHandle,
  startSandbox,
} from '../../sandbox/index.js';
import { cliLogger } from '../log-output.js';

export interface SandboxFlags {
  port: number;
  host: string;
  seed?: string;
  latency?: { ms: number; jitterMs: number };
  faults?: string;
  appPort?: number;
  demoPort?: number;
  allowParent?: string[];
}

/** Reads a YAML or JSON file (YAML is a superset of JSON); every error names the file. */
async function readStructured(file: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${what} file ${file}: ${(error as Error).message}`);
  }
  try {
    return parseYaml(text);
  } catch (error) {
    throw new Error(`${what} file ${file} is not valid YAML or JSON: ${(error as Error).message}`);
  }
}

/** Flags layer over the file: --latency replaces the file's latency rule. */
async function faultConfig(flags: SandboxFlags): Promise<FaultConfig> {
  const fromFile = flags.faults
    ? parseFaultConfig(await readStructured(flags.faults, 'faults'), flags.faults)
    : parseFaultConfig({}, '(defaults)');
  return flags.latency ? { ...fromFile, latency: { ...flags.latency, ops: undefined } } : fromFile;
}

/** `erp-bridge sandbox`: starts the simulator and prints its one line; runs until SIGINT/SIGTERM. */
export async function serveSandbox(flags: SandboxFlags): Promise<void> {
  const { seed, faults } = await asSettings(async () => ({
    seed: flags.seed ? parseSeed(await readStructured(flags.seed, 'seed'), flags.seed) : undefined,
    faults: createFaultInjector(await faultConfig(flags)),
  }));
  // With --port 0 (any free port) the other two are any free port too.
  const next = (offset: number) => (flags.port === 0 ? 0 : flags.port + offset);
  const logger = cliLogger('text', 'info');
  const app = { port: flags.appPort ?? next(1), allowedParents: flags.allowParent ?? [], logger };
  const sandbox = await asSettings(() =>
    startSandbox({ port: flags.port, host: flags.host, seed, faults, app }).catch((error: unknown) => {
      throw new Error(`cannot start on ${flags.host}:${flags.port}: ${(error as Error).message}`);
    }),
  );
  const demo = await startDemo(sandbox, flags.host, flags.demoPort ?? next(2), logger).catch(
    async (error: unknown) => {
      await sandbox.close();
      throw new ConfigError(`cannot start the demo parent page: ${(error as Error).message}`);
    },
  );
  const { url, authUrl, clientId, clientSecret } = sandbox;
  const appUrl = sandbox.app?.url;
  // The one stdout line: scripts read it to learn where the sandbox listens and how to log in.
  process.stdout.write(
    `${JSON.stringify({ url, authUrl, clientId, clientSecret, appUrl, demoUrl: demo.url })}\n`,
  );
  const stop = () => void Promise.all([demo.close(), sandbox.close()]);
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/**
 * The demo parent page: the library's example handler, minting through the partner API with the
 * seed's first client for the first active user of its partner's first account, on its own origin,
 * which is added to the application's allow-list.
 */
async function startDemo(
  sandbox: SandboxHandle,
  host: string,
  port: number,
  logger: Logger,
): Promise<{ url: string; close(): Promise<void> }> {
  const app = sandbox.app;
  if (!app) throw new Error('the embedded application did not start');
  const partnerId = sandbox.runtime.seed.partners[0]?.id;
  const account = [...sandbox.runtime.state.accounts.values()].find((a) => a.partnerId === partnerId);
  const user = account && [...account.users.values()].find((u) => u.active);
  if (!account || !user)
    throw new Error(`the seed gives partner ${partnerId} no account with an active user`);
  const client = new PartnerClient({
    baseUrl: sandbox.url,
    authUrl: sandbox.authUrl,
    clientId: sandbox.clientId,
    clientSecret: sandbox.clientSecret,
  });
  const demo = await startExampleParent({
    client,
    accountId: account.id,
    userId: user.id,
    appUrl: app.url,
    port,
    host,
    logger,
  }).catch(async (error: unknown) => {
    await client.close();
    throw error;
  });
  app.allowParent(demo.origin);
  return {
    url: demo.url,
    close: async () => {
      await demo.close();
      await client.close();
    },
  };
}

/**
 * Seed and fault files, host and port are the user's settings: what is wrong with them is exit 2
 * (ConfigError), as for feed files, not an unexpected error.
 */
async function asSettings<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw error instanceof ConfigError ? error : new ConfigError((error as Error).message);
  }
}
