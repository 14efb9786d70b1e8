/**
 * The sandbox's embedded application as a browser sees it: a page and its script, served by
 * embedded-app.ts on the application's own origin. Plain JavaScript in a string because the
 * sandbox serves it as it is (no build step, no imports).
 *
 * The script: finds its parent's origin (location.ancestorOrigins, else the referrer), does nothing
 * unless that origin is allow-listed, sends `service:ready` there (only there), accepts
 * `service:auth` only from the parent window on that origin (anything else is dropped silently,
 * spec), exchanges the token once per load at POST /exchange and answers `service:auth-success`
 * or `service:auth-error` with the exchange's code. It never logs the token.
 */
export const APP_SCRIPT = `'use strict';
(() => {
  const config = JSON.parse(document.getElementById('app-config').textContent);
  const allowed = new Set(config.allowedParents);
  const view = document.getElementById('app');
  const show = (state, text) => { view.dataset.state = state; view.textContent = text; };
  if (window.parent === window) {
    show('standalone', 'This application runs inside a partner portal.');
    return;
  }
  const ancestors = location.ancestorOrigins;
  const parentOrigin = ancestors && ancestors.length > 0 ? ancestors[0]
    : document.referrer ? new URL(document.referrer).origin : '';
  if (!allowed.has(parentOrigin)) {
    show('refused', 'This portal is not registered for the embedded application.');
    return;
  }
  const reply = (message) => window.parent.postMessage(message, parentOrigin);
  let used = false;
  window.addEventListener('message', async (event) => {
    if (event.source !== window.parent || event.origin !== parentOrigin) return;
    const data = event.data;
    if (typeof data !== 'object' || data === null || data.type !== 'service:auth') return;
    // One exchange per load: the iframe does not retry, the parent reloads it (spec).
    if (used) return;
    used = true;
    show('exchanging', 'Signing in…');
    let answer;
    try {
      const res = await fetch('/exchange', {
        method: 'POST',
        cache: 'no-store',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ initToken: data.initToken, parentOrigin }),
      });
      answer = await res.json();
    } catch {
      answer = { type: 'service:auth-error', code: 'INTERNAL_ERROR', message: 'The exchange did not complete' };
    }
    if (answer.type === 'service:auth-success') {
      show('signed-in', 'Signed in as ' + answer.name + ' (account ' + answer.accountId + ')');
      console.info('embedded app: signed in, user', answer.userId);
      reply({ type: 'service:auth-success' });
    } else {
      // Anything but a clear refusal (a 500, a body that is not the answer) is INTERNAL_ERROR.
      const refused = answer && answer.type === 'service:auth-error' && typeof answer.code === 'string';
      const code = refused ? answer.code : 'INTERNAL_ERROR';
      const message = refused ? answer.message : 'Unexpected failure during the exchange';
      show('error', 'Sign-in failed: ' + code);
      console.warn('embedded app: sign-in failed', code);
      reply({ type: 'service:auth-error', code, message });
    }
  });
  show('ready', 'Waiting for sign-in…');
  reply({ type: 'service:ready', version: '1' });
})();
`;

/** `<` escaped so the JSON block cannot close its script element. */
const jsonForHtml = (value: unknown) => JSON.stringify(value).replaceAll('<', '\\u003c');

export function appPage(allowedParents: readonly string[]): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Financial planning (sandbox)</title>
<style>
body { font-family: system-ui, sans-serif; margin: 0; padding: 24px; color: #16324f; background: #fff; }
h2 { margin: 0 0 8px; font-size: 20px; }
#app { font-size: 15px; }
#app[data-state="signed-in"] { color: #17693a; font-weight: 600; }
#app[data-state="error"], #app[data-state="refused"] { color: #a32020; }
</style>
</head>
<body>
<h2>Cash-flow planning</h2>
<p id="app" data-state="loading">Loading…</p>
<script type="application/json" id="app-config">${jsonForHtml({ allowedParents })}</script>
<script src="/app.js"></script>
</body>
</html>
`;
}
