import Fastify from 'fastify';
import type { AdminConfig } from '../ops/admin-config.js';
import { hostAllowed } from '../ops/admin-host.js';
import { CONSOLE_HEADERS } from './console-headers.js';
import { consolePlugin } from './console-plugin.js';
import type { ConsoleSource } from './console-source.js';

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
export async function startConsoleServer(source: ConsoleSource, config: AdminConfig): Promise<ConsoleServer> {
  const app = Fastify({ logger: false });
  app.addHook('onRequest', async (request, reply) => {
    reply.headers(CONSOLE_HEADERS);
    if (hostAllowed(request.headers.host, config)) return;
    return reply
      .code(421)
      .type('text/plain; charset=utf-8')
      .send(
        'misdirected request: this Host is not one of the console server names; add it to ERP_BRIDGE_ADMIN_ALLOWED_HOSTS if clients use it\n',
      );
  });
  app.get('/', async (_request, reply) => reply.redirect('/console'));
  await app.register(consolePlugin(source, { credentials: config.credentials }));
  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return { url: `http://${host}:${port}`, close: () => app.close() };
}
