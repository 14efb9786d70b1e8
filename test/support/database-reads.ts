import { expect } from 'vitest';
import { DatabaseError } from '../../src/sources/database/database-errors.js';
import type { DatabaseReading } from '../../src/sources/database/database-read.js';
import { databaseMissing, type TestDialect } from './databases.js';

/** Both dialects, each with why its tests skip (undefined: its server answers). */
export async function testDialects(): Promise<{
  dialects: TestDialect[];
  missing: Record<TestDialect, string | undefined>;
}> {
  const dialects: TestDialect[] = ['postgres', 'mysql'];
  const [postgres, mysql] = await Promise.all(dialects.map(databaseMissing));
  return { dialects, missing: { postgres, mysql } };
}

/** Reads a reading to its end, counting its rows. */
export async function drain(reading: DatabaseReading): Promise<number> {
  let rows = 0;
  for await (const batch of reading.batches) rows += batch.length;
  return rows;
}

/** The DatabaseError the work fails with (an assertion failure when it does not fail so). */
export async function databaseFailure(work: Promise<unknown>): Promise<DatabaseError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DatabaseError);
  return error as DatabaseError;
}

/**
 * A rerun after a failed one completed and left every row once: `stored` (the test's transactions
 * in the service) are `rows` externalIds, none twice, and the stored position is at the last row
 * (id `rows`).
 */
export async function expectEachRowOnce(
  rerun: { summary: { stopReason?: unknown } },
  stored: readonly { externalId?: string | null }[],
  position: Promise<unknown>,
  rows: number,
): Promise<void> {
  expect(rerun.summary.stopReason).toBeUndefined();
  const ids = stored.map((t) => t.externalId);
  expect(ids.length).toBe(rows);
  expect(new Set(ids).size).toBe(rows);
  expect(await position).toMatchObject({ tieBreaker: String(rows) });
}
