import Fastify from 'fastify';
import { CONSOLE_HEADERS } from './console-headers.js';
import { type ConsoleGuard, consolePlugin } from './console-plugin.js';
import type { ConsoleSource } from './console-source.js';

export interface ConsoleServerConfig {
  host: string;
  /** 0 = any free port. */
  port: number;
  /** The admin server's Host check (src/ops/admin-host.ts), wired in by the CLI. */
  hostAllowed(header: string | undefined): boolean;
  guard?: ConsoleGuard;
}

export interface ConsoleServer {
  /** http://host:port with the port bound (--port 0 picks one). */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The console on its own server (`erp-bridge console`): the admin server's Host check before
 * anything (a page that rebinds its name to 127.0.0.1 must not read tenants' records), the
 * console's headers on every answer, its 404s included, and the console's routes.
 */
export async function startConsoleServer(
  source: ConsoleSource,
  config: ConsoleServerConfig,
): Promise<ConsoleServer> {
  const app = Fastify({ logger: false });
  app.addHook('onRequest', async (request, reply) => {
    reply.headers(CONSOLE_HEADERS);
    if (config.hostAllowed(request.headers.host)) return;
    return reply
      .code(421)
      .type('text/plain; charset=utf-8')
      .send(
        'misdirected request: this Host is not one of the console server names; add it to ERP_BRIDGE_ADMIN_ALLOWED_HOSTS if clients use it\n',
      );
  });
  app.get('/', async (_request, reply) => reply.redirect('/console'));
  await app.register(consolePlugin(source, config.guard ? { guard: config.guard } : {}));
  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return { url: `http://${host}:${port}`, close: () => app.close() };
}
