import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { handleAdmin } from './admin.js';
import { handleOperation } from './api.js';
import { type EmbeddedApp, type EmbeddedAppOptions, startEmbeddedApp } from './embedded-app.js';
import { SandboxFault } from './fault.js';
import { createFaultInjector, type FaultInjector } from './faults.js';
import { listenOn, readBody, sendJson } from './http.js';
import { createRouter } from './router.js';
import { type SandboxRequestEvent, SandboxRuntime } from './runtime.js';
import { DEFAULT_SEED, parseSeed, type Seed } from './seed.js';
import type { SsoOptions } from './sso.js';
import { handleTokenRequest } from './token-endpoint.js';

export interface SandboxOptions {
  port?: number;
  host?: string;
  /** A parsed seed; the documented default seed when absent. */
  seed?: Seed;
  /** Default: a configurable injector with no faults, so PUT /_sandbox/faults can turn some on. */
  faults?: FaultInjector;
  /** Init-token lifetime (30..60 s), audience, issuer and per-partner rate; defaults in sso.ts. */
  sso?: SsoOptions;
  /** Told of every partner API call once it is answered: arrival, operation, account, status. */
  onRequest?: (event: SandboxRequestEvent) => void;
  /** Also start the embedded application on its own port (own origin), sharing this runtime. */
  app?: EmbeddedAppOptions;
}

export interface SandboxHandle {
  /** {base_url}: http://HOST:PORT/v2 */
  url: string;
  /** {auth_url}: http://HOST:PORT */
  authUrl: string;
  clientId: string;
  clientSecret: string;
  runtime: SandboxRuntime;
  /** The embedded application, when `app` was given. */
  app?: EmbeddedApp;
  close(): Promise<void>;
}

const API_PREFIX = '/v2';

/** Starts the sandbox on HOST:PORT (port 0 picks a free one) and resolves once it listens. */
export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  const seed = options.seed ?? parseSeed(DEFAULT_SEED, 'default seed');
  const runtime = new SandboxRuntime(seed, options.faults ?? createFaultInjector({}), {
    sso: options.sso,
    onRequest: options.onRequest,
  });
  const route = createRouter();

  const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
    dispatch(runtime, route, req, res).catch((error: unknown) => {
      const fault =
        error instanceof SandboxFault
          ? error
          : new SandboxFault(500, 'INTERNAL_ERROR', 'Unexpected sandbox failure');
      if (!res.headersSent) sendJson(res, fault.status, fault.toBody(runtime.clock.now()));
      else res.destroy();
    });
  });
  const host = options.host ?? '127.0.0.1';
  const { origin, close: closeApi } = await listenOn(server, host, options.port ?? 0);
  // The init token's `iss` is the authorization server address (spec), known only once listening.
  if (options.sso?.issuer === undefined) runtime.sso.issuer = origin;
  let app: EmbeddedApp | undefined;
  try {
    app = options.app ? await startEmbeddedApp(runtime, host, options.app) : undefined;
  } catch (error) {
    await closeApi();
    throw error;
  }
  const firstClient = seed.partners[0]?.clients[0];
  return {
    url: `${origin}${API_PREFIX}`,
    authUrl: origin,
    clientId: firstClient?.clientId ?? '',
    clientSecret: firstClient?.clientSecret ?? '',
    runtime,
    ...(app ? { app } : {}),
    close: async () => {
      await Promise.all([closeApi(), app?.close()]);
    },
  };
}

async function dispatch(
  runtime: SandboxRuntime,
  route: ReturnType<typeof createRouter>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://sandbox');
  const body = await readBody(req);
  const path = url.pathname;

  if (path.startsWith('/_sandbox/')) return handleAdmin(runtime, req, path, body, res);
  if (path === '/oauth2/token') {
    if (req.method !== 'POST')
      return sendJson(res, 405, { error: 'invalid_request', error_description: 'Use POST' });
    return handleTokenRequest(runtime, req, body, res);
  }
  if (path === API_PREFIX || path.startsWith(`${API_PREFIX}/`)) {
    const match = route(req.method ?? 'GET', path.slice(API_PREFIX.length) || '/');
    if (match.kind === 'operation')
      return handleOperation(runtime, match.name, match.params, req, url, body, res);
    if (match.kind === 'method-not-allowed') {
      const fault = new SandboxFault(
        405,
        'METHOD_NOT_ALLOWED',
        `${req.method} is not allowed here; use ${match.allowed.join(' or ')}`,
        undefined,
        {
          allow: match.allowed.join(', '),
        },
      );
      return sendJson(res, 405, fault.toBody(runtime.clock.now()), fault.headers);
    }
  }
  sendJson(
    res,
    404,
    new SandboxFault(404, 'NOT_FOUND', `No such endpoint: ${req.method} ${path}`).toBody(runtime.clock.now()),
  );
}
