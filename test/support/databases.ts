import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import pg from 'pg';

/**
 * The machine's own database servers (issue 29): PostgreSQL at 127.0.0.1:5432 (user postgres,
 * trust) and MariaDB at 127.0.0.1:3306 (root, no password), or the servers TEST_POSTGRES_URL and
 * TEST_MYSQL_URL name (an administrator's URL without a database). Each test file makes a database
 * of its own with a random name and drops it after; a file skips, saying why, when the server
 * cannot be reached.
 */
export type TestDialect = 'postgres' | 'mysql';

const ADMIN_URL: Record<TestDialect, string> = {
  postgres: process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  mysql: process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/',
};

/** A database of the test file's own. */
export interface TestDatabase {
  readonly dialect: TestDialect;
  readonly name: string;
  /** The URL to read it with (the administrator's user). */
  readonly url: string;
  /** Runs statements in it, as the administrator (one statement per call on MySQL). */
  exec(sql: string, values?: unknown[]): Promise<void>;
  /** Kills every server session using the database (but the administrator's own): how many. */
  killSessions(): Promise<number>;
  /** Drops it (and anything made with `cleanups`). */
  drop(): Promise<void>;
  /** Statements `drop()` runs first, on the server's administrative database (a role, a user). */
  readonly cleanups: string[];
}

/** Why tests against the server skip, or undefined when it answers. */
export async function databaseMissing(dialect: TestDialect): Promise<string | undefined> {
  try {
    await withAdmin(ADMIN_URL[dialect], dialect, async () => {});
    return undefined;
  } catch (error) {
    return `no ${dialect} server at ${new URL(ADMIN_URL[dialect]).host} (${(error as Error).message || (error as { code?: string }).code}); set TEST_${dialect.toUpperCase()}_URL or start it (.ci/run does)`;
  }
}

async function withAdmin<T>(
  admin: string,
  dialect: TestDialect,
  work: (exec: Exec) => Promise<T>,
  database?: string,
): Promise<T> {
  const url = new URL(admin);
  if (database !== undefined) url.pathname = `/${database}`;
  if (dialect === 'postgres') {
    const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 5_000 });
    client.on('error', () => {});
    await client.connect();
    try {
      return await work(async (sql, values) => (await client.query(sql, values)).rows);
    } finally {
      await client.end();
    }
  }
  const connection = await mysql.createConnection({ uri: url.toString(), connectTimeout: 5_000 });
  try {
    return await work(async (sql, values) => {
      const [rows] = await connection.query(sql, values);
      return Array.isArray(rows) ? rows : [];
    });
  } finally {
    await connection.end();
  }
}

type Exec = (sql: string, values?: unknown[]) => Promise<unknown[]>;

/**
 * `prefix`: how the database's name begins (a benchmark's are `erp_bridge_bench_...`); `admin`:
 * the administrator's URL of another server than the machine's (a test's private server).
 */
export async function createTestDatabase(
  dialect: TestDialect,
  prefix = 'erp_bridge_test',
  admin = ADMIN_URL[dialect],
): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await withAdmin(admin, dialect, (exec) => exec(`CREATE DATABASE ${name}`));
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const cleanups: string[] = [];
  return {
    dialect,
    name,
    url: url.toString(),
    cleanups,
    exec: (sql, values) => withAdmin(admin, dialect, async (exec) => void (await exec(sql, values)), name),
    killSessions: () => withAdmin(admin, dialect, (exec) => killSessions(exec, dialect, name)),
    drop: () =>
      withAdmin(admin, dialect, async (exec) => {
        // PostgreSQL refuses to drop a database a connection still uses: end them first.
        if (dialect === 'postgres') await killSessions(exec, dialect, name);
        await exec(`DROP DATABASE IF EXISTS ${name}`);
        for (const sql of cleanups) await exec(sql);
      }),
  };
}

async function killSessions(exec: Exec, dialect: TestDialect, name: string): Promise<number> {
  if (dialect === 'postgres') {
    const killed = await exec(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [name],
    );
    return killed.length;
  }
  // KILL takes one id at a time.
  const sessions = (await exec(
    'SELECT id FROM information_schema.processlist WHERE db = ? AND id <> CONNECTION_ID()',
    [name],
  )) as { id: number }[];
  for (const { id } of sessions) await exec(`KILL CONNECTION ${Number(id)}`);
  return sessions.length;
}

/**
 * A user of `db`'s server whose login is refused, dropped with the database: PostgreSQL on this
 * machine trusts every local login (pg_hba trust), so a wrong password logs in there and the role
 * may not log in at all (SQLSTATE 28000, the class of a wrong password); MariaDB refuses the wrong
 * password itself (its right one is 'Right-pw-1').
 */
export async function refusedUser(db: TestDatabase, prefix: string): Promise<string> {
  const user = `${prefix}_${randomBytes(4).toString('hex')}`;
  if (db.dialect === 'postgres') {
    db.cleanups.push(`DROP ROLE IF EXISTS ${user}`);
    await db.exec(`CREATE ROLE ${user} NOLOGIN PASSWORD 'Right-pw-1'`);
    return user;
  }
  for (const host of ['127.0.0.1', 'localhost']) {
    db.cleanups.push(`DROP USER IF EXISTS '${user}'@'${host}'`);
    await db.exec(`CREATE USER '${user}'@'${host}' IDENTIFIED BY 'Right-pw-1'`);
  }
  return user;
}

/**
 * A login of its own whose statements the SERVER cuts off after `ms` (PostgreSQL: the role's
 * statement_timeout; MariaDB: the user's MAX_STATEMENT_TIME), allowed to read the database; its
 * URL. What an ERP's administrator sets for a reporting user, and what a run meets as a timeout.
 */
export async function timedUser(db: TestDatabase, prefix: string, ms: number): Promise<string> {
  const user = `${prefix}_${randomBytes(4).toString('hex')}`;
  const url = new URL(db.url);
  url.username = user;
  url.password = 'Timed-pw-1';
  if (db.dialect === 'postgres') {
    db.cleanups.push(`DROP OWNED BY ${user}`, `DROP ROLE IF EXISTS ${user}`);
    await db.exec(`CREATE ROLE ${user} LOGIN PASSWORD 'Timed-pw-1'`);
    await db.exec(`ALTER ROLE ${user} SET statement_timeout = ${ms}`);
    await db.exec(`GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${user}`);
    return url.toString();
  }
  for (const host of ['127.0.0.1', 'localhost']) {
    db.cleanups.push(`DROP USER IF EXISTS '${user}'@'${host}'`);
    await db.exec(
      `CREATE USER '${user}'@'${host}' IDENTIFIED BY 'Timed-pw-1' WITH MAX_STATEMENT_TIME ${ms / 1000}`,
    );
    await db.exec(`GRANT SELECT ON \`${db.name}\`.* TO '${user}'@'${host}'`);
  }
  return url.toString();
}
