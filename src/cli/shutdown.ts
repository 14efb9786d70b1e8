import type { Logger } from 'pino';
import { within } from '../time/deadline.js';

/** After the forced close, how long anything left (a socket, a reconnect timer) may hold the process. */
const LAST_RESORT_MS = 2_000;

/**
 * Runs a process's shutdown (`work`: closing workers, queues, connections) with a deadline. With
 * Redis down, BullMQ's close and ioredis's QUIT wait for a reconnect that may never come, and a
 * connection that "closed" with an error may still run ioredis's reconnect timer, which alone keeps
 * Node alive: a SIGTERM must still end the process. Past `ms`: logs "grace period over" and calls
 * `force` (synchronous disconnects). Either way, whatever still holds the event loop LAST_RESORT_MS
 * later ends with the process (the timer is unref'd: it never delays a process that ends by itself).
 */
export async function shutDownWithin(
  ms: number,
  logger: Logger,
  work: () => Promise<unknown>,
  force: () => void,
): Promise<void> {
  try {
    await within(ms, 'shutdown', work());
  } catch (error) {
    logger.warn(
      { deadlineMs: ms, reason: (error as Error).message },
      'grace period over: shutdown did not finish in time (Redis unreachable?); connections closed by force',
    );
    try {
      force();
    } catch {
      // Forcing is best effort; the timer below ends the process regardless.
    }
  }
  setTimeout(() => {
    logger.warn(
      { afterMs: LAST_RESORT_MS },
      'grace period over: connections still open after shutdown (Redis unreachable?); exiting',
    );
    process.exit();
  }, LAST_RESORT_MS).unref();
}

/** Slack past the grace period for closing connections once in-flight work is done or released. */
export const CLOSE_SLACK_MS = 3_000;
