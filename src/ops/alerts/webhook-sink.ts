import type { Logger } from 'pino';
import type { Agent as AgentInstance } from 'undici';
import { Agent } from '../../client/undici-agent.js';
import { systemClock } from '../../time/clock.js';
import { within } from '../../time/deadline.js';
import type { WebhookConfig } from './alert-config.js';
import type { AlertNotice } from './notice.js';

/** Notices waiting at most; more are dropped (with a log line) rather than held in memory. */
export const WEBHOOK_QUEUE_CAPACITY = 100;
/** Waits before the 1st, 2nd and 3rd resend after a network error, a 5xx or a 429. */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [1000, 2000, 4000];

type Attempt = { delivered: true } | { delivered: false; retryable: boolean; failure: string };

/**
 * POSTs each notice as JSON to the configured URL, in order, one at a time, without ever making
 * the caller wait: `send` only queues. Network errors, timeouts, 5xx and 429 are retried after
 * 1 s, 2 s and 4 s; other answers are final. The URL may carry a secret token, so log lines
 * name only its origin.
 */
export class WebhookSink {
  readonly origin: string;
  /** The URL's path and query: what each POST asks the origin for. */
  readonly #path: string;
  readonly #queue: AlertNotice[] = [];
  readonly #agent: AgentInstance;
  readonly #stop = new AbortController();
  #draining: Promise<void> | undefined;
  #closed = false;

  constructor(
    private readonly config: WebhookConfig,
    private readonly logger: Logger,
    private readonly retryDelaysMs: readonly number[] = WEBHOOK_RETRY_DELAYS_MS,
  ) {
    const url = new URL(config.url);
    this.origin = url.origin;
    this.#path = `${url.pathname}${url.search}`;
    this.#agent = new Agent({
      connect: { timeout: config.timeoutMs },
      headersTimeout: config.timeoutMs,
      bodyTimeout: config.timeoutMs,
    });
  }

  /** Queues the notice; returns at once. Dropped with a log line when the queue is full or closed. */
  send(notice: AlertNotice): void {
    const about = { webhook: this.origin, event: notice.event, feed: notice.feed, runId: notice.runId };
    if (this.#closed || this.#queue.length >= WEBHOOK_QUEUE_CAPACITY) {
      this.logger.warn(
        { ...about, queued: this.#queue.length },
        this.#closed ? 'alert webhook closed: notice not sent' : 'alert webhook queue full: notice dropped',
      );
      return;
    }
    this.#queue.push(notice);
    this.#draining ??= this.#drain().finally(() => {
      this.#draining = undefined;
    });
  }

  /**
   * Shutdown: waits for the queued notices for at most `waitMs` (default: one attempt's
   * timeout), then abandons what is left with a log line. Never throws.
   */
  async close(waitMs = this.config.timeoutMs): Promise<void> {
    this.#closed = true;
    const late = await within(waitMs, 'webhook', this.#draining ?? Promise.resolve()).then(
      () => false,
      () => true,
    );
    if (late) {
      // The queued notices and the one being delivered.
      const abandoned = this.#queue.length + 1;
      this.#queue.length = 0;
      this.#stop.abort();
      await this.#draining;
      this.logger.warn(
        { webhook: this.origin, abandoned },
        'shutting down: alert notices not delivered in time were abandoned',
      );
    }
    await this.#agent.destroy();
  }

  async #drain(): Promise<void> {
    for (let notice = this.#queue.shift(); notice; notice = this.#queue.shift()) await this.#deliver(notice);
  }

  async #deliver(notice: AlertNotice): Promise<void> {
    const body = JSON.stringify(notice);
    const about = { webhook: this.origin, event: notice.event, feed: notice.feed, runId: notice.runId };
    for (let attempt = 1; ; attempt++) {
      const result = await this.#post(body);
      if (this.#stop.signal.aborted) return;
      if (result.delivered) {
        this.logger.info({ ...about, attempts: attempt }, 'alert webhook delivered');
        return;
      }
      const delay = result.retryable ? this.retryDelaysMs[attempt - 1] : undefined;
      if (delay === undefined) {
        this.logger.error(
          { ...about, attempts: attempt, failure: result.failure },
          'alert webhook delivery failed; the notice is in the log only',
        );
        return;
      }
      this.logger.warn(
        { ...about, attempt, failure: result.failure, delayMs: delay },
        'alert webhook retrying',
      );
      if (!(await this.#sleep(delay))) return;
    }
  }

  async #post(body: string): Promise<Attempt> {
    try {
      const response = await this.#agent.request({
        origin: this.origin,
        path: this.#path,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.config.authorization ? { authorization: this.config.authorization } : {}),
        },
        body,
        signal: AbortSignal.any([this.#stop.signal, AbortSignal.timeout(this.config.timeoutMs)]),
      });
      await response.body.dump();
      const status = response.statusCode;
      if (status >= 200 && status < 300) return { delivered: true };
      return { delivered: false, retryable: status >= 500 || status === 429, failure: `HTTP ${status}` };
    } catch (error) {
      // Only the error's code or name: undici messages may quote the address of the request.
      const failure =
        (error as { code?: unknown }).code ?? (error instanceof Error ? error.name : 'unknown error');
      return { delivered: false, retryable: true, failure: String(failure) };
    }
  }

  /** Waits `ms`; false when the sink was stopped meanwhile. */
  #sleep(ms: number): Promise<boolean> {
    return systemClock.sleep(ms, this.#stop.signal).then(
      () => true,
      () => false,
    );
  }
}
