import { createBullBoard } from '@bull-board/api';
import type { BaseAdapter } from '@bull-board/api/dist/queueAdapters/base.js';
import { FastifyAdapter } from '@bull-board/fastify';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { ConfigError } from '../config/errors.js';
import { consolePlugin } from '../console/console-plugin.js';
import type { ConsoleSource } from '../console/console-source.js';
import { AUTH_REALM, authorized, consoleGuard, hasCredentials } from './admin-auth.js';
import type { AdminConfig } from './admin-config.js';
import { hostAllowed } from './admin-host.js';
import type { Metrics } from './metrics.js';
import { checkReadiness, type ReadinessCheck } from './readiness.js';

export interface AdminServerDeps {
  config: AdminConfig;
  logger: Logger;
  metrics: Metrics;
  /** What /readyz checks, by name (the worker: redis and token; the scheduler: redis). */
  readiness: Readonly<Record<string, ReadinessCheck>>;
  /** The queues /queues shows (src/fleet/dashboard.ts). */
  dashboard: readonly BaseAdapter[];
  /**
   * What /console shows (the fleet's runs, src/fleet/console-source.ts); no /console without it.
   * Behind the admin credentials as /queues is, read-only always.
   */
  consoleSource?: ConsoleSource;
  /** Longest a readiness check may take before it counts as failed. Default 3 s. */
  readinessTimeoutMs?: number;
}

export interface AdminServer {
  /** http://host:port, with the port actually bound (ERP_BRIDGE_ADMIN_PORT=0 picks one). */
  readonly url: string;
  /** From now on /healthz and /readyz answer 503, so orchestrators stop sending work. */
  shuttingDown(): void;
  close(): Promise<void>;
}

export const DASHBOARD_PATH = '/queues';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The admin HTTP server of a fleet process: /healthz (liveness), /readyz (its dependencies
 * answer), /metrics (Prometheus text), the BullMQ dashboard at /queues and the console at
 * /console (runs, rejected records, freshness). Only the dashboard and the console need
 * credentials, when some are configured: the probes and the scrape carry nothing secret and
 * are called by tools (Docker HEALTHCHECK, Prometheus) that should not hold the dashboard's keys.
 */
export async function startAdminServer(deps: AdminServerDeps): Promise<AdminServer> {
  const { config, metrics } = deps;
  const logger = deps.logger.child({ component: 'admin' });
  const readinessTimeoutMs = deps.readinessTimeoutMs ?? 3_000;
  let stopping = false;
  // Fastify's own request log is off: every scrape and probe would log a line.
  const app = Fastify({ logger: false });
  app.addHook('onError', async (request, _reply, error) => {
    logger.warn({ err: error, path: request.routeOptions.url }, 'admin request failed');
  });
  // Before anything else, on every route: a page that rebound its name to this machine is refused.
  app.addHook('onRequest', async (request, reply) => {
    if (hostAllowed(request.headers.host, config)) return;
    logger.warn(
      { host: request.headers.host, path: request.url.split('?')[0] },
      'admin: unknown Host refused',
    );
    return reply.code(421).send({
      error: 'misdirected request',
      message:
        'this Host is not one of the admin server names; add it to ERP_BRIDGE_ADMIN_ALLOWED_HOSTS if clients use it',
    });
  });

  app.get('/healthz', async (_request, reply) =>
    stopping ? reply.code(503).send({ status: 'shutting down' }) : { status: 'ok' },
  );
  app.get('/readyz', async (_request, reply) => {
    if (stopping) return reply.code(503).send({ status: 'shutting down' });
    const { ready, checks } = await checkReadiness(deps.readiness, readinessTimeoutMs);
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks });
  });
  app.get('/metrics', async (_request, reply) =>
    reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  );
  await app.register(async (scope) => dashboard(scope, deps, logger));
  if (deps.consoleSource) {
    const guard = consoleGuard(config.credentials);
    await app.register(consolePlugin(deps.consoleSource, guard ? { guard } : {}));
  }

  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await app.close();
    throw listenFailure(error, config);
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;
  logger.info(
    {
      url,
      dashboard: `${url}${DASHBOARD_PATH}`,
      ...(deps.consoleSource ? { console: `${url}/console` } : {}),
      dashboardAuth: authKind(config),
    },
    'admin server listening',
  );
  return {
    url,
    shuttingDown: () => {
      stopping = true;
    },
    close: () => app.close(),
  };
}

/** bull-board under /queues, behind the credentials (this plugin scope's hook guards only it). */
async function dashboard(scope: FastifyInstance, deps: AdminServerDeps, logger: Logger): Promise<void> {
  const { credentials } = deps.config;
  const open = !hasCredentials(credentials);
  scope.addHook('onRequest', async (request, reply) => {
    // Without credentials (loopback only) anyone on the machine, or a page in its browser, could
    // drive the queues: the dashboard only shows them. Retry, remove, add, pause need credentials.
    if (open && !SAFE_METHODS.has(request.method))
      return reply.code(403).send({
        error: 'read-only',
        message:
          'the queue dashboard is read-only without admin credentials; set ERP_BRIDGE_ADMIN_TOKEN (or ERP_BRIDGE_ADMIN_USER and ERP_BRIDGE_ADMIN_PASSWORD) to change jobs',
      });
    const given = request.headers.authorization;
    if (authorized(given, credentials)) return;
    // A browser's first request comes without credentials (the 401 makes it ask): not worth a line.
    if (given) logger.warn({ path: request.url.split('?')[0] }, 'dashboard: wrong credentials');
    return reply
      .code(401)
      .header('www-authenticate', AUTH_REALM)
      .send({ error: 'unauthorized', message: 'the queue dashboard needs the admin credentials' });
  });
  const board = new FastifyAdapter();
  createBullBoard({ queues: deps.dashboard, serverAdapter: board });
  board.setBasePath(DASHBOARD_PATH);
  await scope.register(board.registerPlugin(), { prefix: DASHBOARD_PATH });
}

function authKind(config: AdminConfig): string {
  const { token, basic } = config.credentials;
  if (token && basic) return 'token or user/password';
  if (token) return 'token';
  if (basic) return 'user/password';
  return 'none (loopback only, read-only dashboard)';
}

/** A port in use or an address not on this machine is a configuration problem: exit code 2. */
function listenFailure(error: unknown, config: AdminConfig): unknown {
  const code = (error as { code?: unknown }).code;
  if (code === 'EADDRINUSE')
    return new ConfigError(
      `the admin server cannot listen on ${config.host}:${config.port}: the port is in use; set ERP_BRIDGE_ADMIN_PORT (or --admin-port) to a free port, 0 for any, or off`,
    );
  if (code === 'EADDRNOTAVAIL' || code === 'EACCES' || code === 'ENOTFOUND')
    return new ConfigError(
      `the admin server cannot listen on ${config.host}:${config.port} (${String(code)}); check ERP_BRIDGE_ADMIN_HOST and ERP_BRIDGE_ADMIN_PORT (or --admin-host, --admin-port)`,
    );
  return error;
}
