import { browserModule } from '../../../src/embed/server/browser-modules.js';
import { TestServer } from '../../support/http-server.js';

/**
 * Pages on origins of their own that play the other parties in the browser cases: a scripted
 * embedded application (to drive the helper through protocol corners the real app never shows),
 * a poser (a third origin that messages or forwards as if it were someone else) and a bare parent
 * page (to send the app exactly the message a case needs). Each is a real server on 127.0.0.1.
 */

const html = (body: string) => ({
  text: `<!doctype html><html><head><meta charset="utf-8"></head><body>${body}</body></html>`,
  headers: { 'content-type': 'text/html; charset=utf-8' },
});
const js = (source: string) => ({
  text: source,
  headers: { 'content-type': 'text/javascript; charset=utf-8' },
});

/**
 * GET /?ready=<json>&answer=success|error:<CODE>|none&then=<url>: sends an unknown message type,
 * then the given `service:ready` to its parent's origin; answers each `service:auth` as told
 * (after an unknown type again), and reports at POST /auth whether a token came. With `then`, it
 * navigates the frame there right after `service:ready` (the frame changes hands).
 */
const FAKE_APP = `'use strict';
const q = new URLSearchParams(location.search);
const parentOrigin = location.ancestorOrigins[0];
const send = (m) => parent.postMessage(m, parentOrigin);
addEventListener('message', (e) => {
  if (e.source !== parent || !e.data || e.data.type !== 'service:auth') return;
  const token = typeof e.data.initToken === 'string' && e.data.initToken.length > 0;
  fetch('/auth', { method: 'POST', body: token ? 'token' : 'none' });
  send({ type: 'service:later-addition', note: 'unknown types are ignored' });
  const answer = q.get('answer') || 'success';
  if (answer === 'success') send({ type: 'service:auth-success', extra: { opaque: true } });
  else if (answer.startsWith('error:')) send({ type: 'service:auth-error', code: answer.slice(6), message: 'scripted failure', extra: 1 });
});
send({ type: 'service:later-addition', note: 'before ready' });
send(JSON.parse(q.get('ready') || '{"type":"service:ready","version":"1"}'));
if (q.get('then')) location.href = q.get('then');
`;

/**
 * Reports every message it receives (type and whether it held a token) at POST /got; framed, it
 * also keeps telling its parent that sign-in succeeded, as the window the helper framed (but no
 * longer on the app's origin).
 */
const LISTENER = `'use strict';
if (parent !== window) setInterval(() => parent.postMessage({ type: 'service:auth-success' }, '*'), 100);
addEventListener('message', (e) => {
  const data = e.data || {};
  const token = typeof data.initToken === 'string' && data.initToken.length > 0;
  fetch('/got', { method: 'POST', body: JSON.stringify({ type: data.type, token, from: e.origin }) });
});
`;

/** A parent framing the app (#app) and a third-origin page (#other); records the app's messages. */
const BARE_PARENT = `'use strict';
const frame = document.getElementById('app');
const appOrigin = new URL(frame.src).origin;
window.received = [];
addEventListener('message', (e) => {
  if (e.origin === appOrigin && e.source === frame.contentWindow) window.received.push(e.data);
});
window.sendToApp = (m) => frame.contentWindow.postMessage(m, appOrigin);
`;

export async function startFakeApp(): Promise<TestServer> {
  const server = await TestServer.start();
  server.always('GET', '/', html('<p>scripted app</p><script src="/fake.js"></script>'));
  server.always('GET', '/fake.js', js(FAKE_APP));
  server.always('POST', '/auth', { status: 204 });
  return server;
}

/** Serves /listener (a page reporting what it receives) and /blank (nothing at all). */
export async function startPoser(): Promise<TestServer> {
  const server = await TestServer.start();
  server.always('GET', '/listener', html('<p>listener</p><script src="/listener.js"></script>'));
  server.always('GET', '/listener.js', js(LISTENER));
  server.always('GET', '/blank', html('<p>a third origin</p>'));
  server.always('POST', '/got', { status: 204 });
  return server;
}

/** GET /?app=<url>&other=<url>: the bare parent page. */
export async function startBareParent(): Promise<TestServer> {
  const server = await TestServer.start();
  server.always('GET', '/', (request) => {
    const attr = (value: string | null) => (value ?? 'about:blank').replaceAll('"', '&quot;');
    return html(
      `<iframe id="app" src="${attr(request.query.get('app'))}"></iframe>` +
        `<iframe id="other" src="${attr(request.query.get('other'))}"></iframe><script src="/bare.js"></script>`,
    );
  });
  server.always('GET', '/bare.js', js(BARE_PARENT));
  return server;
}

/**
 * GET /?config=<json>: the example parent page's markup and scripts (embedService through
 * demo-page.js) without its Content-Security-Policy, so that the frame may go anywhere: what the
 * helper itself guarantees, with no CSP behind it. POST /init-token is scripted by the case.
 */
export async function startLooseParent(): Promise<TestServer> {
  const server = await TestServer.start();
  server.always('GET', '/', (request) =>
    html(
      '<p id="embed-status" data-state="loading"></p><div id="service"></div>' +
        `<script type="application/json" id="embed-config">${request.query.get('config') ?? '{}'}</script>` +
        '<script type="module" src="/demo-page.js"></script>',
    ),
  );
  server.always('GET', '/embed.js', async () => js(await browserModule('embed')));
  server.always('GET', '/demo-page.js', async () => js(await browserModule('demo-page')));
  return server;
}

/** What a /got listener reported. */
export const gotMessages = (server: TestServer) =>
  server.requestsTo('POST', '/got').map((r) => JSON.parse(r.body) as { type?: string; token: boolean });
