/**
 * The partner page's side of the embedded sign-in (spec, "Events": the postMessage protocol).
 * Dependency-free and self-contained (one file, no imports) so a partner can serve it as it is, or
 * bundle it. It never logs, stores or returns an init token: the token lives in one local variable
 * between the `mintToken` callback and the one postMessage that carries it to the pinned origin.
 */

/** The spec's `service:auth-error` codes; anything else the service sends is a generic failure. */
export const AUTH_ERROR_CODES = [
  'MISSING_TOKEN',
  'INVALID_TOKEN',
  'EXPIRED_TOKEN',
  'TOKEN_ALREADY_USED',
  'USER_INACTIVE',
  'INTERNAL_ERROR',
] as const;
export type AuthErrorCode = (typeof AUTH_ERROR_CODES)[number];

/** The oldest protocol version this helper speaks; later versions only add (spec, Versioning). */
export const PROTOCOL_VERSION = 1;

export type EmbedFailure =
  /** `service:ready` did not come within `readyTimeoutMs` (app down, framing refused, wrong URL). */
  | { reason: 'ready-timeout'; attempts: number }
  /** `service:auth` was sent but neither success nor error came within `answerTimeoutMs`. */
  | { reason: 'answer-timeout'; attempts: number }
  /** `mintToken` threw, or gave something other than a non-empty string. */
  | { reason: 'mint-failed'; attempts: number; error: unknown }
  /**
   * The last `service:auth-error`: `code` is one of the spec's codes or 'GENERIC' for a code this
   * helper does not know (`serviceCode` keeps what the service sent). `message` is for logs only.
   */
  | {
      reason: 'auth-error';
      attempts: number;
      code: AuthErrorCode | 'GENERIC';
      serviceCode: string;
      message: string;
    };

export interface EmbedOptions {
  /** Where the iframe goes. */
  container: HTMLElement;
  /** The embedded application's URL; its origin is the only one messages go to and come from. */
  appUrl: string;
  /**
   * Fetches a fresh init token from your server (which mints one per call, never cached). Called
   * once per attempt, after that attempt's `service:ready`, so the token's 30-60 s start late.
   */
  mintToken: (signal: AbortSignal) => Promise<string>;
  onSuccess?: (result: { attempts: number }) => void;
  onFailure?: (failure: EmbedFailure) => void;
  /** Attempts in all, the first included (default 2: one retry with a fresh token). */
  maxAttempts?: number;
  /** How long to wait for each `service:ready` (default 15000 ms). */
  readyTimeoutMs?: number;
  /** How long to wait for `mintToken`, and then for the answer to `service:auth` (default 15000 ms each). */
  answerTimeoutMs?: number;
  /** The iframe's accessible title (default "Financial planning"). */
  title?: string;
}

export type EmbedResult = { ok: true; attempts: number } | ({ ok: false } & EmbedFailure);

export interface EmbedHandle {
  readonly iframe: HTMLIFrameElement;
  /** Settles once: signed in, or the final failure (also given to onSuccess / onFailure). */
  readonly done: Promise<EmbedResult>;
  /** Stops listening, cancels timers and a pending mint, and removes the iframe. */
  destroy(): void;
}

type Phase = 'waiting-ready' | 'minting' | 'waiting-answer' | 'done';

/** Codes a fresh token cannot fix: retrying would only mint tokens for nothing. */
const FINAL_CODES: ReadonlySet<string> = new Set<AuthErrorCode>(['USER_INACTIVE']);

/**
 * Frames the application and signs the user in: waits for `service:ready`, mints, sends
 * `service:auth` to the pinned app origin, and on `service:auth-error` reloads the iframe and tries
 * again after the next `service:ready` with a fresh token, up to `maxAttempts` in all.
 */
export function embedService(options: EmbedOptions): EmbedHandle {
  const appUrl = new URL(options.appUrl, document.baseURI);
  if (appUrl.protocol !== 'https:' && appUrl.protocol !== 'http:') {
    throw new TypeError(`appUrl must be an http(s) URL, got ${appUrl.protocol}`);
  }
  const appOrigin = appUrl.origin;
  const maxAttempts = positive(options.maxAttempts, 2, 'maxAttempts');
  const readyTimeoutMs = positive(options.readyTimeoutMs, 15_000, 'readyTimeoutMs');
  const answerTimeoutMs = positive(options.answerTimeoutMs, 15_000, 'answerTimeoutMs');

  const iframe = document.createElement('iframe');
  iframe.title = options.title ?? 'Financial planning';
  let phase: Phase = 'waiting-ready';
  let attempts = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let minting: AbortController | undefined;
  let settle: (result: EmbedResult) => void = () => {};
  const done = new Promise<EmbedResult>((resolve) => {
    settle = resolve;
  });

  const arm = (ms: number, failure: () => EmbedFailure) => {
    clearTimeout(timer);
    timer = setTimeout(() => finish({ ok: false, ...failure() }), ms);
  };

  const finish = (result: EmbedResult) => {
    if (phase === 'done') return;
    phase = 'done';
    stop();
    settle(result);
    if (result.ok) options.onSuccess?.({ attempts: result.attempts });
    else {
      const { ok: _ok, ...failure } = result;
      options.onFailure?.(failure);
    }
  };

  const stop = () => {
    clearTimeout(timer);
    minting?.abort();
    window.removeEventListener('message', onMessage);
  };

  const load = () => {
    phase = 'waiting-ready';
    arm(readyTimeoutMs, () => ({ reason: 'ready-timeout', attempts }));
    // Assigning src (re)loads the application, which sends one new service:ready.
    iframe.src = appUrl.href;
  };

  const sendAuth = async () => {
    phase = 'minting';
    attempts += 1;
    const controller = new AbortController();
    minting = controller;
    // finish() aborts the callback's signal, so a hung mint ends here and never sends late.
    arm(answerTimeoutMs, () => ({
      reason: 'mint-failed',
      attempts,
      error: new Error(`mintToken did not settle within ${answerTimeoutMs} ms`),
    }));
    let initToken: unknown;
    try {
      initToken = await options.mintToken(controller.signal);
    } catch (error) {
      if (!controller.signal.aborted) finish({ ok: false, reason: 'mint-failed', attempts, error });
      return;
    }
    if (controller.signal.aborted || phase !== 'minting') return;
    if (typeof initToken !== 'string' || initToken === '') {
      const error = new TypeError('mintToken must resolve to a non-empty string');
      return finish({ ok: false, reason: 'mint-failed', attempts, error });
    }
    const target = iframe.contentWindow;
    if (!target) return finish({ ok: false, reason: 'ready-timeout', attempts });
    phase = 'waiting-answer';
    arm(answerTimeoutMs, () => ({ reason: 'answer-timeout', attempts }));
    // Pinned to the exact app origin: if the frame navigated elsewhere, the browser drops it.
    target.postMessage({ type: 'service:auth', initToken }, appOrigin);
  };

  const onMessage = (event: MessageEvent) => {
    // Only the application's origin, and only from this helper's own iframe: a popup or another
    // frame of the same origin is not the application this page is signing in.
    if (event.origin !== appOrigin || event.source !== iframe.contentWindow) return;
    const data: unknown = event.data;
    if (typeof data !== 'object' || data === null) return;
    const message = data as Record<string, unknown>;
    switch (message.type) {
      case 'service:ready':
        if (phase === 'waiting-ready' && speaks(message.version)) void sendAuth();
        return;
      case 'service:auth-success':
        if (phase === 'waiting-answer') finish({ ok: true, attempts });
        return;
      case 'service:auth-error':
        if (phase === 'waiting-answer') failed(message);
        return;
      default:
        // Unknown types are ignored (spec): later protocol versions may add some.
        return;
    }
  };

  const failed = (message: Record<string, unknown>) => {
    const serviceCode = typeof message.code === 'string' ? message.code : '';
    const known = (AUTH_ERROR_CODES as readonly string[]).includes(serviceCode);
    const code = known ? (serviceCode as AuthErrorCode) : 'GENERIC';
    if (attempts < maxAttempts && !FINAL_CODES.has(code)) return load();
    const text = typeof message.message === 'string' ? message.message : '';
    finish({ ok: false, reason: 'auth-error', attempts, code, serviceCode, message: text });
  };

  window.addEventListener('message', onMessage);
  options.container.appendChild(iframe);
  load();

  return {
    iframe,
    done,
    destroy() {
      if (phase !== 'done') {
        phase = 'done';
        stop();
      }
      iframe.remove();
    },
  };
}

/** "1" and any later major version ("2", "1.1"); anything unreadable or older is not the protocol. */
function speaks(version: unknown): boolean {
  if (typeof version !== 'string' && typeof version !== 'number') return false;
  const major = Number.parseInt(String(version), 10);
  return Number.isInteger(major) && major >= PROTOCOL_VERSION;
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new TypeError(`${name} must be a positive integer`);
  return value;
}
