/**
 * Every run's result once all have ended; a run that threw (a bug) is thrown only then. The feeds
 * of a `sync` share one client, which it closes once they have ended: closing it while another feed still runs would fail
 * that feed's records (`The client is destroyed`) for a failure that was not its own.
 */
export async function allSettled<T>(runs: readonly (T | Promise<T>)[]): Promise<T[]> {
  const values: T[] = [];
  for (const run of await Promise.allSettled(runs)) {
    if (run.status === 'rejected') throw run.reason;
    values.push(run.value);
  }
  return values;
}
