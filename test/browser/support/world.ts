import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { PartnerClient } from '../../../src/client/index.js';
import { exampleParentHandler, INIT_TOKEN_HEADERS } from '../../../src/embed/server/index.js';
import type { EmbeddedApp, SandboxHandle } from '../../../src/sandbox/index.js';
import { ssoHelpers } from '../../integration/sandbox/sso-fixture.js';
import { type CapturedLogs, captureLogs } from '../../support/log-capture.js';
import { withSandbox } from '../../support/sandbox.js';
import { launchChromium } from './chromium.js';

export interface HelperSettings {
  maxAttempts?: number;
  readyTimeoutMs?: number;
  answerTimeoutMs?: number;
}

/** A token the parent hands out instead of minting one, optionally after a delay. */
export interface QueuedToken {
  initToken: string;
  delayMs?: number;
}

/** A partner page: the library's example handler, with a queue of tokens tests can put first. */
export interface TestParent {
  url: string;
  origin: string;
  /** POST /init-token requests so far (each one a mint, queued or real). */
  mints: number;
  queue: QueuedToken[];
}

export interface ParentSettings {
  /** Register the page's origin with the embedded application (default true). */
  allowed?: boolean;
  /** Default: the sandbox's embedded application. */
  appUrl?: string;
  helper?: HelperSettings;
  userId?: number;
}

/**
 * One sandbox (API + embedded application on its own origin), one Chromium and everything a case
 * needs, shared by the cases of a file; each case gets a fresh browser context (no storage carried
 * over). Every console message of every page and frame, every log line of the sandbox's app, the
 * example parent and the client, and every init token that existed are collected for the final
 * "no token in any log" check.
 */
export function embedWorld() {
  const w = {
    console: [] as string[],
    tokens: new Set<string>(),
    logs: {} as { app: CapturedLogs; parent: CapturedLogs; client: CapturedLogs },
    /** Headers of every /init-token answer the browser received. */
    tokenAnswers: [] as Array<Record<string, string>>,
  } as {
    sandbox: SandboxHandle;
    app: EmbeddedApp;
    client: PartnerClient;
    browser: Browser;
    context: BrowserContext;
    accountId: number;
    userId: number;
    console: string[];
    tokens: Set<string>;
    logs: { app: CapturedLogs; parent: CapturedLogs; client: CapturedLogs };
    tokenAnswers: Array<Record<string, string>>;
    pending: Array<Promise<unknown>>;
  };
  w.pending = [];
  const servers: Server[] = [];
  let sso: ReturnType<typeof ssoHelpers>;

  beforeAll(async () => {
    w.logs = { app: captureLogs(), parent: captureLogs(), client: captureLogs() };
    const sb = await withSandbox({ port: 0, app: { logger: w.logs.app.logger } });
    w.sandbox = sb.sandbox;
    sso = ssoHelpers(sb);
    if (!w.sandbox.app) throw new Error('the sandbox did not start its embedded application');
    w.app = w.sandbox.app;
    w.client = new PartnerClient(
      {
        baseUrl: w.sandbox.url,
        authUrl: w.sandbox.authUrl,
        clientId: w.sandbox.clientId,
        clientSecret: w.sandbox.clientSecret,
      },
      { logger: w.logs.client.logger },
    );
    w.accountId = 1001;
    const [admin] = await w.client.listUsers(w.accountId);
    if (!admin) throw new Error('seed account 1001 has no user');
    w.userId = admin.id;
    w.browser = await launchChromium();
  });

  afterAll(async () => {
    await w.browser?.close();
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    await w.client?.close();
    await w.sandbox?.close();
  });

  beforeEach(async () => {
    w.context = await w.browser.newContext();
    w.context.on('console', (message) => w.console.push(`${message.type()}: ${message.text()}`));
    w.context.on('weberror', (error) => w.console.push(`pageerror: ${error.error().message}`));
    w.context.on('response', (response) => {
      if (!response.url().endsWith('/init-token')) return;
      w.tokenAnswers.push(response.headers());
      w.pending.push(
        response
          .json()
          .then((body: { initToken?: unknown }) => {
            if (typeof body.initToken === 'string' && body.initToken) w.tokens.add(body.initToken);
          })
          .catch(() => undefined),
      );
    });
  });

  afterEach(async () => {
    await Promise.all(w.pending);
    await w.context.close();
  });

  /** Mints through the partner API (as a partner's server would) and remembers the token. */
  async function mint(userId = w.userId): Promise<string> {
    const { initToken } = await w.client.call('ssoInit', { accountId: w.accountId, body: { userId } });
    w.tokens.add(initToken);
    return initToken;
  }

  /** Moves the sandbox clock forward (token expiry) through its admin endpoint. */
  const advanceClock = (ms: number) => sso.advance(ms);

  /** Exchanges a token outside any browser, at the sandbox's own exchange endpoint. */
  const exchangeDirectly = (initToken: string) => sso.exchange({ initToken });

  async function startParent(settings: ParentSettings = {}): Promise<TestParent> {
    const handler = exampleParentHandler({
      client: w.client,
      accountId: w.accountId,
      userId: settings.userId ?? w.userId,
      appUrl: settings.appUrl ?? w.app.url,
      helper: settings.helper,
      logger: w.logs.parent.logger,
    });
    const parent = { url: '', origin: '', mints: 0, queue: [] as QueuedToken[] };
    const server = createServer((req, res) => {
      if (req.method !== 'POST' || req.url !== '/init-token') return handler(req, res);
      parent.mints += 1;
      const queued = parent.queue.shift();
      if (!queued) return handler(req, res);
      setTimeout(() => {
        const body = JSON.stringify({ initToken: queued.initToken, expiresIn: 60, expiresAt: '' });
        res.writeHead(200, INIT_TOKEN_HEADERS).end(body);
      }, queued.delayMs ?? 0);
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    parent.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    parent.url = `${parent.origin}/`;
    if (settings.allowed ?? true) w.app.allowParent(parent.origin);
    return parent;
  }

  /** Exchanges the app logged since `from` (its `outcome` field: a code or 'signed-in'). */
  const exchanges = (from = 0) =>
    w.logs.app
      .entries()
      .slice(from)
      .map((entry) => entry.outcome)
      .filter((outcome): outcome is string => typeof outcome === 'string');

  return Object.assign(w, { mint, advanceClock, exchangeDirectly, startParent, exchanges });
}

export type EmbedWorld = ReturnType<typeof embedWorld>;

/** The parent page's status once it settled: signed-in or failed, with reason, code and attempts. */
export async function settled(page: Page, timeoutMs = 30_000) {
  const status = page.locator('#embed-status:is([data-state="signed-in"], [data-state="failed"])');
  await status.waitFor({ timeout: timeoutMs });
  const data = (name: string) => status.getAttribute(`data-${name}`);
  return {
    state: await data('state'),
    reason: await data('reason'),
    code: await data('code'),
    attempts: Number(await data('attempts')),
  };
}
