import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from '../../config/errors.js';
import {
  createFaultInjector,
  type FaultConfig,
  parseFaultConfig,
  parseSeed,
  startSandbox,
} from '../../sandbox/index.js';

export interface SandboxFlags {
  port: number;
  host: string;
  seed?: string;
  latency?: { ms: number; jitterMs: number };
  faults?: string;
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
  const sandbox = await asSettings(() =>
    startSandbox({ port: flags.port, host: flags.host, seed, faults }).catch((error: unknown) => {
      throw new Error(`cannot start on ${flags.host}:${flags.port}: ${(error as Error).message}`);
    }),
  );
  const { url, authUrl, clientId, clientSecret } = sandbox;
  // The one stdout line: scripts read it to learn where the sandbox listens and how to log in.
  process.stdout.write(`${JSON.stringify({ url, authUrl, clientId, clientSecret })}\n`);
  const stop = () => void sandbox.close();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
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
