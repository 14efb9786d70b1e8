import { ApiError, retryDelayMs } from '../../client/index.js';
import type { ChunkContext } from '../ports.js';

/**
 * The spec's 1/2/4 s schedule for one write whose outcome is unknown (500 or lost answer, or an
 * answer that left records unmentioned): wait, re-check what the service holds (existence check,
 * lookup, listing), and resend only what is missing. After the third re-check the write counts as
 * failed: the error is logged with an alert and thrown, and the strategy marks the chunk's
 * remaining records failed (the next run re-checks them before sending anything).
 */
export class RecheckSchedule {
  #done = 0;

  /**
   * `waitOutInFlight`: for creates the service does not de-duplicate (invoices, bank accounts).
   * When the answer was lost (timeout, reset after sending) the request may still be processed
   * and commit later; a re-check before that misses it and the resend duplicates it (issue 18
   * case 1). So the first re-check after such a failure waits at least the error's inFlightForMs
   * (PARTNER_INFLIGHT_GRACE_MS, default twice the headers timeout). Transactions need no such wait:
   * the service skips a second create of an externalId.
   */
  constructor(
    private readonly ctx: ChunkContext,
    private readonly operation: string,
    private readonly waitOutInFlight = false,
  ) {}

  /**
   * Waits before the next re-check; `reason` is the error code (or UNACKNOWLEDGED) that caused it,
   * `cause` the error itself when there was one (its inFlightForMs lengthens the wait).
   */
  async wait(reason: string, cause?: unknown): Promise<void> {
    const next = this.#done + 1;
    const scheduled = retryDelayMs(next);
    const inFlight = this.waitOutInFlight && cause instanceof ApiError ? (cause.inFlightForMs ?? 0) : 0;
    const delay = scheduled === undefined ? undefined : Math.max(scheduled, inFlight);
    if (scheduled !== undefined && inFlight > scheduled) {
      this.ctx.logger.warn(
        { operation: this.operation, reason, waitMs: delay },
        'write answer lost: waiting until the request can no longer commit before re-checking',
      );
    }
    if (delay === undefined) {
      const { accountId, logger } = this.ctx;
      logger.error(
        { alert: true, reason, operation: this.operation, accountId },
        'write still unconfirmed after 3 re-checks; records marked failed',
      );
      throw new ApiError({
        kind: 'ambiguous_write',
        code: reason === 'UNACKNOWLEDGED' ? 'UNACKNOWLEDGED' : 'AMBIGUOUS_WRITE',
        message: `${this.operation} for account ${accountId}: the outcome of the write stayed unknown after ${this.#done} re-checks; the next run will re-check and resend`,
        operation: this.operation,
        accountId,
      });
    }
    await this.ctx.clock.sleep(delay, this.ctx.signal);
    this.#done = next;
  }
}
