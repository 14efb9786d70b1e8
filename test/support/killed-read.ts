import { openDatabase } from '../../src/sources/database/open-database.js';
import type { OpenDatabase } from '../../src/sync/run/database-run.js';
import type { TestDatabase } from './databases.js';

export interface KilledRead {
  /** The run's (or worker's) opener of the real reader, in batches of 100. */
  open: OpenDatabase;
  /** How many server sessions the kill ended (0: it never happened). */
  killed(): number;
}

/**
 * The real reader (src/sources/database/) whose server session is killed mid-read: after a batch
 * has been handed to the run, once `when()` holds (a chunk's write reached the sandbox), `kill`
 * ends the reader's session from an administrator's connection, before the next batch is asked
 * for. Once only. `env`, when given, is read in place of the run's (a worker's process env).
 */
export function killedRead(
  when: () => boolean,
  kill: () => Promise<number>,
  env?: NodeJS.ProcessEnv,
): KilledRead {
  let killed = 0;
  const open: OpenDatabase = (source, runEnv) => {
    const database = openDatabase(source, env ?? runEnv, { batchSize: 100 });
    return {
      label: database.source,
      read: (after) => {
        const reading = database.read(after);
        async function* batches() {
          for await (const batch of reading.batches) {
            yield batch;
            if (killed === 0 && when()) killed = await kill();
          }
        }
        return { ...reading, batches: batches() };
      },
      close: () => database.close(),
    };
  };
  return { open, killed: () => killed };
}

/**
 * A `bank_bookings` table of `rows` rows (ids 1..rows, one second apart; externalIds `prefix` +
 * id) as databaseFeedFile maps it. Its `pad` column (not mapped) makes the rows about 2 KB each:
 * more than the sockets' buffers hold, so the server is still sending when the session is killed
 * (with small rows MariaDB has sent every row before the first batch is handed out). `pad`: its
 * length, longer where the server's sockets hold more before the stop lands (a shutdown closes
 * them gently: MariaDB's client still gets every row the sockets held, some megabytes).
 */
export async function bigBookings(db: TestDatabase, rows: number, prefix: string, pad = 2000): Promise<void> {
  const postgres = db.dialect === 'postgres';
  await db.exec(
    `CREATE TABLE bank_bookings (id bigint PRIMARY KEY, ext varchar(40) NOT NULL, updated_at timestamp(6) NOT NULL,
      booked_on date NOT NULL, amount decimal(14,2) NOT NULL, memo text, pad text)`,
  );
  const series = postgres ? `generate_series(1, ${rows}) AS s(seq)` : `seq_1_to_${rows} AS s`;
  const second = postgres
    ? `TIMESTAMP '2026-11-01 00:00:00' + seq * INTERVAL '1 second'`
    : `TIMESTAMP '2026-11-01 00:00:00' + INTERVAL seq SECOND`;
  const ext = postgres ? `'${prefix}' || seq` : `CONCAT('${prefix}', seq)`;
  await db.exec(
    `INSERT INTO bank_bookings SELECT seq, ${ext}, ${second}, DATE '2026-11-01', seq + 0.25, 'Buchung', REPEAT('x', ${pad}) FROM ${series}`,
  );
}
