import { type Command, InvalidArgumentError } from 'commander';
import type { SandboxFlags } from './sandbox-run.js';

/** Default port of `erp-bridge sandbox` (documented in the README); 0 picks a free one. */
export const DEFAULT_SANDBOX_PORT = 4010;

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

/** --allow-parent may be given many times; each is one origin. */
function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function registerSandboxCommand(program: Command): void {
  program
    .command('sandbox')
    .description(
      'Start the local simulator of the partner API, its embedded application and a demo parent page; prints one JSON line {url, authUrl, clientId, clientSecret, appUrl, demoUrl}',
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
    .option(
      '--app-port <n>',
      'port of the embedded application (its own origin); default --port + 1',
      parsePort,
    )
    .option('--demo-port <n>', 'port of the demo parent page; default --port + 2', parsePort)
    .option(
      '--allow-parent <origin>',
      'parent page origin allowed to embed the application (repeatable); the demo page is always allowed',
      collect,
    )
    .action(async (flags: SandboxFlags) => {
      // Loaded on use: the sandbox's handlers and schemas stay out of the other commands.
      const { serveSandbox } = await import('./sandbox-run.js');
      await serveSandbox(flags);
    });
}
