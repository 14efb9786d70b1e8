import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/http-server.js';
import { gotMessages, startBareParent, startFakeApp, startLooseParent, startPoser } from './support/pages.js';
import { embedWorld, settled } from './support/world.js';

const w = embedWorld();
let fake: TestServer;
let poser: TestServer;
let bare: TestServer;
let loose: TestServer;

beforeAll(async () => {
  [fake, poser, bare, loose] = await Promise.all([
    startFakeApp(),
    startPoser(),
    startBareParent(),
    startLooseParent(),
  ]);
});
afterAll(async () => {
  await Promise.all([fake?.close(), poser?.close(), bare?.close(), loose?.close()]);
});

const open = async (url: string): Promise<Page> => {
  const page = await w.context.newPage();
  await page.goto(url);
  return page;
};

/** The embedded application's frame of a page, once it shows `state`. */
async function appFrame(page: Page, state: string) {
  const frame = page.frames().find((f) => f.url().startsWith(w.app.origin));
  if (!frame) throw new Error(`no frame of ${w.app.origin} in ${page.url()}`);
  await frame.locator(`#app[data-state="${state}"]`).waitFor();
  return frame;
}

describe('embedded sign-in in Chromium', () => {
  it('signs the user in: one token minted after service:ready, sent only to the app, nothing stored', async () => {
    const parent = await w.startParent();
    const logged = w.logs.app.lines.length;
    const page = await open(parent.url);

    expect(await settled(page)).toMatchObject({ state: 'signed-in', attempts: 1 });
    const frame = await appFrame(page, 'signed-in');
    expect(await frame.locator('#app').textContent()).toBe('Signed in as Ada Admin (account 1001)');
    expect(parent.mints).toBe(1);
    expect(w.exchanges(logged)).toEqual(['signed-in']);
    // The token's answer is never cached, and neither page keeps anything.
    expect(w.tokenAnswers.at(-1)).toMatchObject({ 'cache-control': 'no-store', pragma: 'no-cache' });
    for (const target of [page.mainFrame(), frame]) {
      const kept = await target.evaluate(
        '(async () => [localStorage.length, sessionStorage.length, document.cookie, (await caches.keys()).length])()',
      );
      expect(kept).toEqual([0, 0, '', 0]);
    }
    const shot = process.env.EMBED_SCREENSHOT;
    if (shot) {
      mkdirSync(dirname(shot), { recursive: true });
      await page.setViewportSize({ width: 900, height: 240 });
      await page.screenshot({ path: shot });
    }
  });

  it('gives a parent on a non-allow-listed origin no answer: framing refused, nothing minted or exchanged', async () => {
    const parent = await w.startParent({ allowed: false, helper: { readyTimeoutMs: 2_500 } });
    const logged = w.logs.app.lines.length;
    const page = await open(parent.url);

    expect(await settled(page)).toMatchObject({ state: 'failed', reason: 'ready-timeout', attempts: 0 });
    expect(parent.mints).toBe(0);
    expect(w.exchanges(logged)).toEqual([]);
    // The browser refused to frame the app (frame-ancestors): no frame shows the app's page.
    for (const frame of page.frames()) expect(await frame.locator('#app').count()).toBe(0);
  });

  it('refuses in the page itself a parent not allow-listed that got the app framed (no frame-ancestors)', async () => {
    // Past the header (stripped here), the app's script is the one left to refuse: no
    // service:ready to that parent and no exchange, even for a valid token it sends.
    await w.context.route(w.app.url, async (route) => {
      const response = await route.fetch();
      const { 'content-security-policy': _csp, ...headers } = response.headers();
      await route.fulfill({ response, headers });
    });
    const stranger = await startBareParent();
    try {
      const page = await open(`${stranger.url}/?app=${encodeURIComponent(w.app.url)}`);
      const frame = await appFrame(page, 'refused');
      expect(await frame.locator('#app').textContent()).toBe(
        'This portal is not registered for the embedded application.',
      );
      const logged = w.logs.app.lines.length;
      await page.evaluate(
        `sendToApp({ type: 'service:auth', initToken: ${JSON.stringify(await w.mint())} })`,
      );
      await page.waitForTimeout(1_000);
      expect(await page.evaluate('window.received')).toEqual([]);
      expect(w.exchanges(logged)).toEqual([]);
    } finally {
      await w.context.unrouteAll();
      await stranger.close();
    }
  });

  it('answers EXPIRED_TOKEN for a token past its expiry on the sandbox clock', async () => {
    const parent = await w.startParent({ helper: { maxAttempts: 1 } });
    parent.queue.push({ initToken: await w.mint() });
    await w.advanceClock(61_000);
    const page = await open(parent.url);

    expect(await settled(page)).toMatchObject({
      state: 'failed',
      reason: 'auth-error',
      code: 'EXPIRED_TOKEN',
      attempts: 1,
    });
    await appFrame(page, 'error');
  });

  it('answers TOKEN_ALREADY_USED to a second use of a token that signed in once', async () => {
    const token = await w.mint();
    const first = await w.startParent();
    first.queue.push({ initToken: token });
    expect(await settled(await open(first.url))).toMatchObject({ state: 'signed-in' });

    const second = await w.startParent({ helper: { maxAttempts: 1 } });
    second.queue.push({ initToken: token });
    expect(await settled(await open(second.url))).toMatchObject({
      state: 'failed',
      reason: 'auth-error',
      code: 'TOKEN_ALREADY_USED',
    });
  });

  it('answers MISSING_TOKEN to service:auth without initToken; the helper never sends an empty token', async () => {
    w.app.allowParent(bare.url);
    const page = await open(`${bare.url}/?app=${encodeURIComponent(w.app.url)}`);
    await page.waitForFunction('window.received.some((m) => m.type === "service:ready")');
    expect(await page.evaluate('window.received')).toEqual([{ type: 'service:ready', version: '1' }]);
    await page.evaluate('sendToApp({ type: "service:auth" })');
    await page.waitForFunction('window.received.length === 2');
    expect(await page.evaluate('window.received[1]')).toMatchObject({
      type: 'service:auth-error',
      code: 'MISSING_TOKEN',
    });

    const parent = await w.startParent({ helper: { maxAttempts: 1 } });
    parent.queue.push({ initToken: '' });
    const logged = w.logs.app.lines.length;
    expect(await settled(await open(parent.url))).toMatchObject({ state: 'failed', reason: 'mint-failed' });
    expect(w.exchanges(logged)).toEqual([]);
  });

  it('answers USER_INACTIVE when the user left between minting and exchange, and does not retry it', async () => {
    const [admin] = await w.client.listUsers(w.accountId);
    const user = await w.client.createUser(w.accountId, {
      companyId: admin?.companyId ?? 0,
      role: 'USER',
      externalId: 'embed-leaver',
      email: 'leaver@embed.example',
      firstName: 'Lea',
      lastName: 'Ver',
    });
    const token = await w.mint(user.id);
    await w.client.call('deleteUser', { accountId: w.accountId, params: { userId: user.id } });
    const parent = await w.startParent({ helper: { maxAttempts: 3 } });
    parent.queue.push({ initToken: token });

    expect(await settled(await open(parent.url))).toMatchObject({
      state: 'failed',
      reason: 'auth-error',
      code: 'USER_INACTIVE',
      attempts: 1,
    });
    expect(parent.mints).toBe(1);
  });

  it('retries once with a fresh token after service:auth-error and the next service:ready', async () => {
    const used = await w.mint();
    expect((await w.exchangeDirectly(used)).status).toBe(200);
    const parent = await w.startParent();
    parent.queue.push({ initToken: used });
    const logged = w.logs.app.lines.length;

    expect(await settled(await open(parent.url))).toMatchObject({ state: 'signed-in', attempts: 2 });
    expect(parent.mints).toBe(2);
    expect(w.exchanges(logged)).toEqual(['TOKEN_ALREADY_USED', 'signed-in']);
  });

  it('ignores messages posing as the app from a third origin and from another window of the app origin', async () => {
    // The helper frames a URL of the app's origin that never sends service:ready; posers that
    // opened the partner page flood it with protocol messages from outside its iframe.
    const flood = (parentUrl: string) => `(() => {
      const target = window.open(${JSON.stringify(parentUrl)});
      const messages = [
        { type: 'service:ready', version: '1' },
        { type: 'service:auth-success' },
        { type: 'service:auth-error', code: 'INVALID_TOKEN', message: 'posed' },
      ];
      setInterval(() => { for (const m of messages) target.postMessage(m, '*'); }, 25);
    })()`;
    for (const posingFrom of [`${poser.url}/blank`, `${w.app.origin}/not-the-app`]) {
      const parent = await w.startParent({
        appUrl: `${w.app.origin}/not-the-app`,
        helper: { readyTimeoutMs: 2_500 },
      });
      const attacker = await open(posingFrom);
      const popup = w.context.waitForEvent('page');
      await attacker.evaluate(flood(parent.url));
      const page = await popup;
      expect(await settled(page), posingFrom).toMatchObject({ state: 'failed', reason: 'ready-timeout' });
      expect(parent.mints, posingFrom).toBe(0);
    }
  });

  it('drops service:auth from a window other than the parent: a third-origin frame forwarding a valid token', async () => {
    w.app.allowParent(bare.url);
    const token = await w.mint();
    const page = await open(
      `${bare.url}/?app=${encodeURIComponent(w.app.url)}&other=${encodeURIComponent(`${poser.url}/blank`)}`,
    );
    await page.waitForFunction('window.received.length === 1');
    const logged = w.logs.app.lines.length;
    const other = page.frames().find((f) => f.url().startsWith(poser.url));
    if (!other) throw new Error('the third-origin frame did not load');
    await other.evaluate(
      `parent.frames[0].postMessage({ type: 'service:auth', initToken: ${JSON.stringify(token)} }, '*')`,
    );
    await page.waitForTimeout(1_000);
    expect(w.exchanges(logged)).toEqual([]);
    expect(await page.evaluate('window.received.length')).toBe(1);
    // Dropped, not consumed: the parent itself can still sign in with it.
    await page.evaluate(`sendToApp({ type: 'service:auth', initToken: ${JSON.stringify(token)} })`);
    await page.waitForFunction('window.received.length === 2');
    expect(await page.evaluate('window.received[1]')).toEqual({ type: 'service:auth-success' });
    expect(w.exchanges(logged)).toEqual(['signed-in']);
    // One exchange per load: a second service:auth, even with a fresh token, gets no answer.
    await page.evaluate(`sendToApp({ type: 'service:auth', initToken: ${JSON.stringify(await w.mint())} })`);
    await page.waitForTimeout(1_000);
    expect(await page.evaluate('window.received.length')).toBe(2);
    expect(w.exchanges(logged)).toEqual(['signed-in']);
  });

  it('gives up on a mint that does not settle in time, and never sends its late token', async () => {
    const parent = await w.startParent({ helper: { maxAttempts: 1, answerTimeoutMs: 1_000 } });
    parent.queue.push({ initToken: await w.mint(), delayMs: 2_000 });
    const logged = w.logs.app.lines.length;
    const page = await open(parent.url);
    expect(await settled(page)).toMatchObject({ state: 'failed', reason: 'mint-failed', attempts: 1 });
    await page.waitForTimeout(1_500);
    expect(w.exchanges(logged)).toEqual([]);
  });

  it('answers INTERNAL_ERROR when the exchange fails unexpectedly (network error, or a 500)', async () => {
    for (const failure of ['abort', '500'] as const) {
      await w.context.route(`${w.app.origin}/exchange`, (route) =>
        failure === 'abort'
          ? route.abort('connectionreset')
          : route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' }),
      );
      const parent = await w.startParent({ helper: { maxAttempts: 1 } });
      expect(await settled(await open(parent.url)), failure).toMatchObject({
        state: 'failed',
        reason: 'auth-error',
        code: 'INTERNAL_ERROR',
      });
      await w.context.unrouteAll();
    }
  });

  it('pins service:auth to the app origin: a frame that navigated to another origin receives nothing and is not heard', async () => {
    // A parent without CSP (the example's frame-src would stop the navigation itself), whose
    // token comes only once the frame has moved on to the listener's origin.
    const listener = `${poser.url}/listener`;
    const appUrl = `${fake.url}/?then=${encodeURIComponent(listener)}`;
    const initToken = await w.mint();
    w.tokens.add(initToken);
    const served = poser.requestsTo('GET', '/listener.js').length;
    loose.script('POST', '/init-token', async () => {
      // Answer once the listener's page is in the frame (its script was fetched), and a bit more.
      const deadline = Date.now() + 10_000;
      while (poser.requestsTo('GET', '/listener.js').length === served && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      return { json: { initToken }, headers: { 'cache-control': 'no-store' } };
    });
    const config = { appUrl, mintUrl: '/init-token', maxAttempts: 1, answerTimeoutMs: 2_000 };
    const before = gotMessages(poser).length;
    const page = await open(`${loose.url}/?config=${encodeURIComponent(JSON.stringify(config))}`);

    expect(await settled(page)).toMatchObject({ state: 'failed', reason: 'answer-timeout' });
    expect(page.frames().some((f) => f.url() === listener)).toBe(true);
    expect(loose.requestsTo('POST', '/init-token')).toHaveLength(1);
    expect(gotMessages(poser).slice(before)).toEqual([]);
  });

  describe('against a scripted app', () => {
    const at = (query: Record<string, string>) => `${fake.url}/?${new URLSearchParams(query)}`;

    it('accepts a later protocol version and ignores unknown fields and message types', async () => {
      const ready = JSON.stringify({ type: 'service:ready', version: '2', features: ['x'] });
      const parent = await w.startParent({ appUrl: at({ ready, answer: 'success' }) });
      expect(await settled(await open(parent.url))).toMatchObject({ state: 'signed-in', attempts: 1 });
      expect(fake.requestsTo('POST', '/auth').at(-1)?.body).toBe('token');
    });

    it('does not take service:ready of an older or missing version', async () => {
      for (const ready of [{ type: 'service:ready', version: '0' }, { type: 'service:ready' }]) {
        const appUrl = at({ ready: JSON.stringify(ready) });
        const parent = await w.startParent({ appUrl, helper: { readyTimeoutMs: 1_500 } });
        expect(await settled(await open(parent.url))).toMatchObject({ reason: 'ready-timeout' });
        expect(parent.mints).toBe(0);
      }
    });

    it('treats an unknown error code as a generic failure, retried up to maxAttempts', async () => {
      const parent = await w.startParent({ appUrl: at({ answer: 'error:SOMETHING_NEW' }) });
      const auths = fake.requestsTo('POST', '/auth').length;
      expect(await settled(await open(parent.url))).toMatchObject({
        state: 'failed',
        reason: 'auth-error',
        code: 'GENERIC',
        attempts: 2,
      });
      expect(parent.mints).toBe(2);
      expect(fake.requestsTo('POST', '/auth').length - auths).toBe(2);
    });

    it('gives up with answer-timeout when the app never answers service:auth', async () => {
      const parent = await w.startParent({
        appUrl: at({ answer: 'none' }),
        helper: { answerTimeoutMs: 1_500 },
      });
      expect(await settled(await open(parent.url))).toMatchObject({
        state: 'failed',
        reason: 'answer-timeout',
      });
    });
  });

  // Last: every case above has run, so every token and every log line is in.
  it('shows no init token in any console message or any log line', async () => {
    await Promise.all(w.pending);
    expect(w.tokens.size).toBeGreaterThan(10);
    expect(w.console.length).toBeGreaterThan(10);
    const logs = [...w.logs.app.lines, ...w.logs.parent.lines, ...w.logs.client.lines];
    expect(logs.length).toBeGreaterThan(20);
    const everything = [...w.console, ...logs].join('\n');
    for (const token of w.tokens) {
      // The whole token, and each of its signed parts alone (a log that cut it would still leak).
      const [, payload, signature] = token.split('.');
      for (const piece of [token, payload, signature]) expect(everything).not.toContain(piece);
    }
  });
});
