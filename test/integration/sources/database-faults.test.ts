import { inspect } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DatabaseSource } from '../../../src/sources/database/database-settings.js';
import { openDatabase } from '../../../src/sources/database/open-database.js';
import { databaseFailure, drain, testDialects } from '../../support/database-reads.js';
import {
  createTestDatabase,
  refusedUser,
  type TestDatabase,
  type TestDialect,
} from '../../support/databases.js';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.js';

/**
 * Issue 29 point 6 on the reading side, against the machine's real servers: a statement timeout, a
 * connection killed mid-read, a refused password (never in any text), a NULL cursor value; each a
 * DatabaseError with its exit code.
 */
const { dialects, missing } = await testDialects();
const DEFAULT_PORT: Record<TestDialect, number> = { postgres: 5432, mysql: 3306 };

/** The database's URL with the proxy's port in place of the server's. */
function throughProxy(url: string, proxy: TcpProxy): string {
  const through = new URL(url);
  through.port = new URL(proxy.endpoint).port;
  return through.toString();
}

describe.each(dialects)('database faults on %s', (dialect) => {
  const skip = missing[dialect];
  describe.skipIf(skip !== undefined)(`${dialect}${skip ? ` (skipped: ${skip})` : ''}`, () => {
    let db: TestDatabase;
    const settings = (source: Record<string, unknown>) =>
      DatabaseSource.parse({ location: { type: dialect, urlEnv: 'ERP_DB_URL' }, ...source });

    beforeAll(async () => {
      db = await createTestDatabase(dialect);
      if (dialect === 'postgres') {
        await db.exec(
          'CREATE TABLE many AS SELECT g AS id, g AS changed FROM generate_series(1, 100000) AS g',
        );
      } else {
        await db.exec('CREATE TABLE many (id int PRIMARY KEY, changed int)');
        await db.exec('INSERT INTO many SELECT seq, seq FROM seq_1_to_100000');
      }
      await db.exec('CREATE TABLE nullable (id int PRIMARY KEY, changed_at date)');
      await db.exec(`INSERT INTO nullable VALUES (1, '2024-01-01'), (2, NULL)`);
    });
    afterAll(async () => {
      await db?.drop();
    });
    afterEach(() => {
      vi.restoreAllMocks();
    });

    it('ends a statement over the timeout with TIMEOUT (exit 3)', async () => {
      const sleep = dialect === 'postgres' ? 'pg_sleep(5)' : 'SLEEP(5)';
      const open = openDatabase(
        settings({ query: `SELECT ${sleep} AS slept` }),
        { ERP_DB_URL: db.url },
        {
          statementTimeoutMs: 200,
        },
      );
      try {
        const error = await databaseFailure(drain(open.read()));
        expect([error.code, error.exitCode]).toEqual(['TIMEOUT', 3]);
      } finally {
        await open.close();
      }
    });

    it('ends a read whose connection is killed with CONNECTION_LOST (exit 3), not as a read that ended', async () => {
      const open = openDatabase(
        settings({ table: 'many', cursor: { column: 'changed', tieBreaker: 'id' } }),
        {
          ERP_DB_URL: db.url,
        },
        { batchSize: 100 },
      );
      let read = 0;
      try {
        const error = await databaseFailure(
          (async () => {
            for await (const batch of open.read().batches) {
              read += batch.length;
              if (read === batch.length) expect(await db.killSessions()).toBeGreaterThan(0);
            }
          })(),
        );
        expect([error.code, error.exitCode]).toEqual(['CONNECTION_LOST', 3]);
        expect(error.message).toContain(`/${db.name}`);
      } finally {
        await open.close();
      }
    });

    it('ends a read whose network path is reset with CONNECTION_LOST (exit 3)', async () => {
      const proxy = await startTcpProxy(Number(new URL(db.url).port || DEFAULT_PORT[dialect]));
      const open = openDatabase(
        settings({ table: 'many', cursor: { column: 'changed', tieBreaker: 'id' } }),
        {
          ERP_DB_URL: throughProxy(db.url, proxy),
        },
      );
      try {
        // Past the login and the snapshot's statements, within the rows (about 1 MB of them).
        const cut = proxy.cutAfter(200_000);
        const error = await databaseFailure(drain(open.read()));
        await cut;
        expect([error.code, error.exitCode]).toEqual(['CONNECTION_LOST', 3]);
      } finally {
        await open.close();
        await proxy.stop();
      }
    });

    it('says UNREACHABLE (exit 3) for a connection reset while connecting, and the next read connects anew', async () => {
      const proxy = await startTcpProxy(Number(new URL(db.url).port || DEFAULT_PORT[dialect]));
      const open = openDatabase(settings({ table: 'nullable' }), { ERP_DB_URL: throughProxy(db.url, proxy) });
      try {
        const cut = proxy.cutAfter(1);
        const error = await databaseFailure(drain(open.read()));
        await cut;
        expect([error.code, error.exitCode]).toEqual(['UNREACHABLE', 3]);
        expect(await drain(open.read())).toBe(2);
        expect(proxy.connections()).toBe(2);
      } finally {
        await open.close();
        await proxy.stop();
      }
    });

    it('stops at a NULL cursor value (exit 2) rather than skip the row', async () => {
      const open = openDatabase(
        settings({ table: 'nullable', cursor: { column: 'changed_at', tieBreaker: 'id' } }),
        {
          ERP_DB_URL: db.url,
        },
      );
      try {
        const error = await databaseFailure(drain(open.read()));
        expect([error.code, error.exitCode]).toEqual(['NULL_CURSOR', 2]);
        expect(error.message).toContain('changed_at');
      } finally {
        await open.close();
      }
    });

    // The login refused (refusedUser: on PostgreSQL a role that may not log in).
    it('refuses a login with AUTH_FAILED (exit 3), the password nowhere', async () => {
      const user = await refusedUser(db, 'erp_reader');
      const logged: string[] = [];
      for (const stream of ['log', 'warn', 'error', 'info', 'debug'] as const) {
        vi.spyOn(console, stream).mockImplementation((...args: unknown[]) => void logged.push(inspect(args)));
      }
      const url = new URL(db.url);
      url.username = user;
      url.password = 'Sekr3t-wrong-pw';
      const open = openDatabase(settings({ table: 'many' }), { ERP_DB_URL: url.toString() });
      try {
        expect(open.label).toBe(
          `${dialect}://${url.hostname}:${url.port || DEFAULT_PORT[dialect]}/${db.name}`,
        );
        const error = await databaseFailure(drain(open.read()));
        expect([error.code, error.exitCode]).toEqual(['AUTH_FAILED', 3]);
        expect(error.message).toContain(open.label);
        expect(error.message).toContain(user);
        for (const text of [error.message, inspect(error, { depth: 10 }), JSON.stringify(error), ...logged]) {
          expect(text).not.toContain('Sekr3t');
        }
      } finally {
        await open.close();
      }
    });

    it('says NO_SUCH_DATABASE (exit 2) for a database the server does not have', async () => {
      const url = new URL(db.url);
      url.pathname = `/${db.name}_missing`;
      const open = openDatabase(settings({ table: 'many' }), { ERP_DB_URL: url.toString() });
      try {
        const error = await databaseFailure(drain(open.read()));
        expect([error.code, error.exitCode]).toEqual(['NO_SUCH_DATABASE', 2]);
        expect(error.message).toContain(`${db.name}_missing`);
      } finally {
        await open.close();
      }
    });
  });
});
