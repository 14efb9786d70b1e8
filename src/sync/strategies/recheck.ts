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

  constructor(
    private readonly ctx: ChunkContext,
    private readonly operation: string,
  ) {}

  /** Waits before the next re-check; `reason` is the error code (or UNACKNOWLEDGED) that caused it. */
  async wait(reason: string): Promise<void> {
    const next = this.#done + 1;
    const delay = retryDelayMs(next);
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
