import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { PartnerClientCore } from '../../client/index.js';
import { type BrowserModule, browserModule } from './browser-modules.js';
import { sendInitToken } from './init-token.js';

export interface ExampleParentOptions {
  /** A client with the partner's credentials; it mints the tokens (server side only). */
  client: PartnerClientCore;
  /** The signed-in user of the partner's portal; a real portal takes both from its session. */
  accountId: number;
  userId: number;
  /** The embedded application's URL ({app_url}); framing is allowed for its origin only. */
  appUrl: string;
  /** embedService settings the page passes on (attempts, timeouts). */
  helper?: { maxAttempts?: number; readyTimeoutMs?: number; answerTimeoutMs?: number };
  logger?: Logger;
}

const MODULES: Record<string, BrowserModule> = { '/embed.js': 'embed', '/demo-page.js': 'demo-page' };

/**
 * A minimal partner page with the embedded application signed in: GET / is the page, /embed.js
 * and /demo-page.js its scripts, POST /init-token mints one token per call. The page's CSP allows
 * framing only the application's origin (`frame-src`) and scripts only from itself.
 */
export function exampleParentHandler(
  options: ExampleParentOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  const appOrigin = new URL(options.appUrl).origin;
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `frame-src ${appOrigin}`,
    "connect-src 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  const page = pageHtml({ appUrl: options.appUrl, mintUrl: '/init-token', ...options.helper });
  const { client, accountId, userId, logger } = options;

  return (req, res) => {
    const path = new URL(req.url ?? '/', 'http://parent').pathname;
    const route = `${req.method} ${path}`;
    const module = req.method === 'GET' ? MODULES[path] : undefined;
    const answer = async () => {
      if (route === 'GET /') return send(res, 200, 'text/html; charset=utf-8', page, csp);
      if (module) return send(res, 200, 'text/javascript; charset=utf-8', await browserModule(module), csp);
      if (route === 'POST /init-token') {
        // Only this page's own script mints: browsers mark a request from another site, whose
        // POST would otherwise still burn the partner's init-token rate limit.
        const site = req.headers['sec-fetch-site'];
        if (site !== undefined && site !== 'same-origin')
          return send(res, 403, 'text/plain; charset=utf-8', 'Forbidden', csp);
        return sendInitToken(res, client, { accountId, userId }, logger);
      }
      // No icon; answered so browsers do not log a 404 in the page's console.
      if (route === 'GET /favicon.ico') return send(res, 204, 'text/plain', '', csp);
      send(res, 404, 'text/plain; charset=utf-8', 'Not found', csp);
    };
    answer()
      .then(() =>
        logger?.info({ method: req.method, path, status: res.statusCode }, 'example parent request'),
      )
      .catch((error: unknown) => {
        logger?.error({ method: req.method, path, err: error }, 'example parent request failed');
        if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', 'Internal error', csp);
        else res.destroy();
      });
  };
}

export interface ExampleParent {
  /** The page: http://HOST:PORT/ */
  url: string;
  origin: string;
  close(): Promise<void>;
}

/** Serves exampleParentHandler on HOST:PORT (port 0 picks a free one). */
export async function startExampleParent(
  options: ExampleParentOptions & { port?: number; host?: string },
): Promise<ExampleParent> {
  const server = createServer(exampleParentHandler(options));
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url: `${origin}/`,
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function send(res: ServerResponse, status: number, type: string, body: string, csp: string): void {
  res.writeHead(status, {
    'content-type': type,
    'content-length': Buffer.byteLength(body),
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
  });
  res.end(body);
}

/** `<` escaped so the JSON block cannot close its script element. */
const jsonForHtml = (value: unknown) => JSON.stringify(value).replaceAll('<', '\\u003c');

function pageHtml(config: Record<string, unknown>): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Partner portal (erp-bridge example)</title>
<style>
body { font-family: system-ui, sans-serif; margin: 0; background: #f4f5f7; color: #1d2330; }
header { padding: 12px 20px; background: #1d2330; color: #fff; display: flex; gap: 24px; align-items: baseline; }
header h1 { font-size: 18px; margin: 0; }
#embed-status { margin: 0; font-size: 14px; }
#service iframe { border: 0; width: 100%; height: 180px; background: #fff; }
</style>
</head>
<body>
<header><h1>Partner portal</h1><p id="embed-status" data-state="loading">Signing in…</p></header>
<div id="service"></div>
<script type="application/json" id="embed-config">${jsonForHtml(config)}</script>
<script type="module" src="/demo-page.js"></script>
</body>
</html>
`;
}
