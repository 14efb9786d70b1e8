/**
 * The example parent page's script (src/embed/server/example-parent.ts serves it): what a partner
 * writes around embedService. Its settings come from a JSON block of the page, so the script is
 * static and the page's Content-Security-Policy can stay `script-src 'self'`.
 */
import { type EmbedFailure, embedService } from './embed.js';

interface PageConfig {
  appUrl: string;
  mintUrl: string;
  maxAttempts?: number;
  readyTimeoutMs?: number;
  answerTimeoutMs?: number;
}

const config = JSON.parse(document.getElementById('embed-config')?.textContent ?? '{}') as PageConfig;
const status = document.getElementById('embed-status') as HTMLElement;
const container = document.getElementById('service') as HTMLElement;

function show(state: string, text: string, failure?: EmbedFailure): void {
  status.dataset.state = state;
  status.textContent = text;
  if (failure) {
    status.dataset.reason = failure.reason;
    status.dataset.attempts = String(failure.attempts);
    if (failure.reason === 'auth-error') status.dataset.code = failure.code;
  }
}

/** Asks this page's server for a fresh token: one per call, never cached (no-store both ways). */
async function mintToken(signal: AbortSignal): Promise<string> {
  const res = await fetch(config.mintUrl, { method: 'POST', cache: 'no-store', signal });
  if (!res.ok) throw new Error(`the init-token endpoint answered ${res.status}`);
  const body = (await res.json()) as { initToken?: unknown };
  return typeof body.initToken === 'string' ? body.initToken : '';
}

embedService({
  container,
  appUrl: config.appUrl,
  mintToken,
  maxAttempts: config.maxAttempts,
  readyTimeoutMs: config.readyTimeoutMs,
  answerTimeoutMs: config.answerTimeoutMs,
  onSuccess: ({ attempts }) => {
    show('signed-in', 'Signed in to the financial planning service');
    status.dataset.attempts = String(attempts);
    console.info('embedded sign-in succeeded');
  },
  onFailure: (failure) => {
    const code = failure.reason === 'auth-error' ? ` (${failure.code})` : '';
    show('failed', `Sign-in failed: ${failure.reason}${code}`, failure);
    // `message` and the mint error are for logs only; neither ever holds a token.
    const detail =
      failure.reason === 'auth-error'
        ? failure.message
        : failure.reason === 'mint-failed'
          ? String(failure.error)
          : '';
    console.warn('embedded sign-in failed', failure.reason, code, detail);
  },
});
