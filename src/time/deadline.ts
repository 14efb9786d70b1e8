/**
 * `work`, or a rejection naming `what` once `ms` have passed. For checks against Redis: the fleet's
 * connection queues commands while Redis is away (maxRetriesPerRequest: null) instead of failing,
 * so without a deadline a health check or a scrape would hang until Redis came back.
 */
export async function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
