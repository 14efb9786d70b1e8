import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { APP_SCRIPT, appPage } from './embedded-page.js';
import { listenOn, readBody } from './http.js';
import type { SandboxRuntime } from './runtime.js';
import { exchangeInitToken, jsonObjectOf } from './sso-exchange.js';

export interface EmbeddedAppOptions {
  /** Its own port: a second origin, as the real application has. 0 (default) picks a free one. */
  port?: number;
  /**
   * Parent page origins registered for the embedded integration (`http://host:port`, no path).
   * Others get no `service:ready`, their `service:auth` is dropped and framing is refused.
   */
  allowedParents?: readonly string[];
  /** Told of each exchange (outcome, user, parent origin) and of each request; never of a token. */
  logger?: Pick<Logger, 'info' | 'warn' | 'error'>;
}

export interface EmbeddedApp {
  /** {app_url}: http://HOST:PORT/ */
  url: string;
  origin: string;
  /** Registers one more parent origin (the CLI's demo page, found only once it listens). */
  allowParent(origin: string): void;
  close(): Promise<void>;
}

/** `origin` as an exact origin (scheme://host[:port]); a clear error naming it otherwise. */
function parseOrigin(origin: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(origin);
  } catch {
    parsed = undefined;
  }
  if (!parsed || parsed.origin === 'null' || parsed.origin !== origin.replace(/\/$/, '')) {
    throw new Error(
      `allowed parent "${origin}" is not an origin; expected scheme://host[:port], e.g. http://127.0.0.1:4012`,
    );
  }
  return parsed.origin;
}

/**
 * The sandbox's embedded application on its own port, sharing the runtime (clock, SSO issuer and
 * its minted tokens, users) with the API. Every answer carries `frame-ancestors` with the
 * allow-listed parents, so a browser refuses to frame it anywhere else.
 */
export async function startEmbeddedApp(
  runtime: SandboxRuntime,
  host: string,
  options: EmbeddedAppOptions,
): Promise<EmbeddedApp> {
  const allowed = new Set((options.allowedParents ?? []).map(parseOrigin));
  const log = options.logger;
  let origin = '';

  const server = createServer((req, res) => {
    serve(req, res).catch((error: unknown) => {
      log?.error({ err: error, path: req.url }, 'embedded app request failed');
      if (!res.headersSent) send(res, 500, 'application/json', JSON.stringify({ error: 'INTERNAL_ERROR' }));
      else res.destroy();
    });
  });

  const policy = () => {
    const ancestors = allowed.size > 0 ? [...allowed].join(' ') : "'none'";
    return `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors ${ancestors}`;
  };
  const send = (res: ServerResponse, status: number, type: string, body: string) => {
    res.writeHead(status, {
      'content-type': `${type}; charset=utf-8`,
      'content-length': Buffer.byteLength(body),
      'content-security-policy': policy(),
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    });
    res.end(body);
  };

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://app').pathname;
    const route = `${req.method} ${path}`;
    if (route === 'GET /') return send(res, 200, 'text/html', appPage([...allowed]));
    if (route === 'GET /app.js') return send(res, 200, 'text/javascript', APP_SCRIPT);
    if (route === 'POST /exchange') return exchange(req, res);
    // No icon; answered so browsers do not log a 404 in the page's console.
    if (route === 'GET /favicon.ico') return send(res, 204, 'text/plain', '');
    send(res, 404, 'text/plain', 'Not found');
  }

  /** Only the application's own page may exchange (its Origin); the token is never logged. */
  async function exchange(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    if (req.headers.origin !== origin) {
      log?.warn(
        { requestOrigin: req.headers.origin ?? null },
        'embedded exchange refused: not from the app page',
      );
      return send(res, 403, 'application/json', JSON.stringify({ error: 'FORBIDDEN' }));
    }
    const fields = jsonObjectOf(body);
    const initToken = fields?.initToken;
    const parentOrigin = typeof fields?.parentOrigin === 'string' ? fields.parentOrigin : undefined;
    const result = await exchangeInitToken(runtime.sso, runtime.state, initToken, runtime.clock.now());
    if (!result.ok) {
      const { code, message } = result;
      log?.info({ outcome: code, parentOrigin }, 'embedded sign-in refused');
      return send(
        res,
        200,
        'application/json',
        JSON.stringify({ type: 'service:auth-error', code, message }),
      );
    }
    const { userId, accountId } = result;
    const user = runtime.state.accounts.get(accountId)?.users.get(userId);
    const name = user ? `${user.firstName} ${user.lastName}` : `user ${userId}`;
    log?.info({ outcome: 'signed-in', userId, accountId, parentOrigin }, 'embedded sign-in');
    send(
      res,
      200,
      'application/json',
      JSON.stringify({ type: 'service:auth-success', userId, accountId, name }),
    );
  }

  const listening = await listenOn(server, host, options.port ?? 0);
  origin = listening.origin;
  return {
    url: `${origin}/`,
    origin,
    allowParent: (parent) => void allowed.add(parseOrigin(parent)),
    close: listening.close,
  };
}
