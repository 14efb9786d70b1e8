import { readFile } from 'node:fs/promises';
import { type Command, InvalidArgumentError } from 'commander';
import { parse as parseYaml } from 'yaml';
import {
  createFaultInjector,
  type FaultConfig,
  parseFaultConfig,
  parseSeed,
  startSandbox,
} from '../../sandbox/index.js';

/** Default port of `erp-bridge sandbox` (documented in the README); 0 picks a free one. */
export const DEFAULT_SANDBOX_PORT = 4010;

interface SandboxFlags {
  port: number;
  host: string;
  seed?: string;
  latency?: { ms: number; jitterMs: number };
  faults?: string;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535)
    throw new InvalidArgumentError('expected a port from 0 to 65535');
  return port;
}

/** `120` or `120,30`: fixed latency and uniform jitter in milliseconds. */
function parseLatency(value: string): { ms: number; jitterMs: number } {
  const match = /^(\d+(?:\.\d+)?)(?:,(\d+(?:\.\d+)?))?$/.exec(value.trim());
  if (!match) throw new InvalidArgumentError('expected ms or ms,jitter (e.g. 120 or 120,30)');
  return { ms: Number(match[1]), jitterMs: Number(match[2] ?? 0) };
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

export function registerSandboxCommand(program: Command): void {
  program
    .command('sandbox')
    .description(
      'Start the local simulator of the partner API; prints one JSON line {url, authUrl, clientId, clientSecret}',
    )
    .option('--port <n>', 'TCP port, 0 for any free port', parsePort, DEFAULT_SANDBOX_PORT)
    .option('--host <host>', 'interface to bind', '127.0.0.1')
    .option('--seed <file>', 'seed file (YAML or JSON) replacing the default seed')
    .option(
      '--latency <ms[,jitter]>',
      'latency added to every API request, plus uniform jitter',
      parseLatency,
    )
    .option('--faults <file>', 'fault config file (YAML or JSON): latency, 500s, 429s, resets, scripts')
    .action(async (flags: SandboxFlags) => {
      const seed = flags.seed ? parseSeed(await readStructured(flags.seed, 'seed'), flags.seed) : undefined;
      const faults = createFaultInjector(await faultConfig(flags));
      const sandbox = await startSandbox({ port: flags.port, host: flags.host, seed, faults }).catch(
        (error: unknown) => {
          throw new Error(`cannot listen on ${flags.host}:${flags.port}: ${(error as Error).message}`);
        },
      );
      const { url, authUrl, clientId, clientSecret } = sandbox;
      // The one stdout line: scripts read it to learn where the sandbox listens and how to log in.
      process.stdout.write(`${JSON.stringify({ url, authUrl, clientId, clientSecret })}\n`);
      const stop = () => void sandbox.close();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
}
