import { describe, expect, it } from 'vitest';
import { DatabaseSource } from '../../../src/sources/database/database-settings.js';
import { databaseUrl } from '../../../src/sources/database/database-url.js';
import { readStatement } from '../../../src/sources/database/statement.js';

/**
 * Issue 29: a database source's keys are checked at load, names only ever reach SQL checked and
 * quoted, and the cursor's values never reach it at all.
 */
const location = { type: 'postgres', urlEnv: 'ERP_DB_URL' } as const;

function issues(source: Record<string, unknown>): string[] {
  const result = DatabaseSource.safeParse({ location, ...source });
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('database source settings', () => {
  it('takes a table or a query with a cursor, timeZone UTC unless given', () => {
    const parsed = DatabaseSource.parse({
      location,
      table: 'erp.bank_bookings',
      cursor: { column: 'updated_at', tieBreaker: 'id' },
    });
    expect(parsed).toEqual({
      location,
      table: 'erp.bank_bookings',
      cursor: { column: 'updated_at', tieBreaker: 'id' },
      timeZone: 'UTC',
    });
    expect(
      issues({ query: 'WITH x AS (SELECT 1 AS id) SELECT * FROM x', timeZone: 'Europe/Berlin' }),
    ).toEqual([]);
  });

  it('refuses names that could leave their quotes, naming the key', () => {
    for (const table of ['bank"; DROP TABLE x; --', 'erp.bank bookings', 'a.b.c', "x'", 'x`y', '']) {
      expect(issues({ table })[0]).toMatch(/^table: a table name/);
    }
    expect(issues({ table: 't', cursor: { column: 'a" OR 1=1 --' } })[0]).toMatch(
      /^cursor\.column: a column name/,
    );
    expect(issues({ table: 't', cursor: { column: 'a', tieBreaker: 'id`' } })[0]).toMatch(
      /^cursor\.tieBreaker:/,
    );
  });

  it('wants table or query, exactly one', () => {
    expect(issues({})).toEqual([
      'table: give table (erp.bank_bookings) or query (SELECT ...): neither is set',
    ]);
    expect(issues({ table: 't', query: 'SELECT 1' })).toEqual(['query: give table or query, not both']);
  });

  it('refuses a query that is no SELECT or ends with ;', () => {
    expect(issues({ query: 'DELETE FROM bank_bookings' })[0]).toMatch(/^query: a SELECT statement/);
    expect(issues({ query: 'SELECT * FROM bank_bookings;  ' })[0]).toMatch(
      /^query: .*without a trailing ";"/,
    );
  });

  it('refuses an offset or an unknown zone for timeZone, and unknown keys', () => {
    expect(issues({ table: 't', timeZone: '+01:00' })[0]).toMatch(/^timeZone: an IANA time zone name/);
    expect(issues({ table: 't', timeZone: 'Mars/Olympus' })[0]).toMatch(/^timeZone:/);
    expect(issues({ table: 't', path: '*.csv' })[0]).toMatch(/path/);
    expect(
      DatabaseSource.safeParse({ location: { type: 'postgres', urlEnv: 'ERP-URL' }, table: 't' }).success,
    ).toBe(false);
    expect(
      DatabaseSource.safeParse({ location: { ...location, url: 'postgres://u:p@h/db' }, table: 't' }).success,
    ).toBe(false);
  });
});

describe('read statements', () => {
  const source = (s: Record<string, unknown>) => DatabaseSource.parse({ location, ...s });

  it('quotes every name and binds the position as parameters, never as text', () => {
    const after = { column: "2024-01-01 00:00:00+00'); DROP TABLE x; --", tieBreaker: '42' };
    const pg = readStatement(
      'postgres',
      source({ table: 'erp.Bank$', cursor: { column: 'updated_at', tieBreaker: 'id' } }),
      after,
    );
    expect(pg).toEqual({
      text: 'SELECT * FROM "erp"."Bank$" AS q WHERE (q."updated_at", q."id") > ($1, $2) ORDER BY q."updated_at", q."id"',
      values: [after.column, '42'],
    });
    const my = readStatement('mysql', source({ table: 'erp.bank', cursor: { column: 'updated_at' } }), after);
    expect(my).toEqual({
      text: 'SELECT * FROM `erp`.`bank` AS q WHERE q.`updated_at` > ? ORDER BY q.`updated_at`',
      values: [after.column],
    });
  });

  it('reads a query as a subquery, a trailing comment kept inside its parentheses', () => {
    const statement = readStatement('postgres', source({ query: 'SELECT id FROM t -- all' }), undefined);
    expect(statement).toEqual({ text: 'SELECT * FROM (\nSELECT id FROM t -- all\n) AS q', values: [] });
  });

  it('reads again from the column value when the position lacks the tie-breaker (never skips)', () => {
    const statement = readStatement(
      'postgres',
      source({ table: 't', cursor: { column: 'c', tieBreaker: 'id' } }),
      { column: '5' },
    );
    expect(statement.text).toBe('SELECT * FROM "t" AS q WHERE q."c" >= $1 ORDER BY q."c", q."id"');
  });
});

describe('database URL', () => {
  it('names the database without user or password, and never repeats a URL it refuses', () => {
    const pgUrl = databaseUrl(location, {
      ERP_DB_URL: 'postgresql://erp:Sekr3t@db.example:6432/ledger?sslmode=require',
    });
    expect(pgUrl.label).toBe('postgres://db.example:6432/ledger');
    const myUrl = databaseUrl({ type: 'mysql', urlEnv: 'U' }, { U: 'mysql://erp:Sekr3t@db.example/ledger' });
    expect(myUrl.label).toBe('mysql://db.example:3306/ledger');
    for (const env of [{}, { ERP_DB_URL: ' ' }]) {
      expect(() => databaseUrl(location, env)).toThrow(/ERP_DB_URL is not set/);
    }
    let message = '';
    try {
      databaseUrl(location, { ERP_DB_URL: 'mysql://erp:Sekr3t@db.example/ledger' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/does not hold a URL of the form postgres:/);
    expect(message).not.toContain('Sekr3t');
  });

  it('refuses a MySQL URL parameter that would change how values are read; ssl is taken', () => {
    const mysqlUrl = (url: string) => () => databaseUrl({ type: 'mysql', urlEnv: 'U' }, { U: url });
    expect(mysqlUrl('mysql://erp:Sekr3t@db.example/ledger?dateStrings=false')).toThrow(
      /the parameter dateStrings; only ssl is taken/,
    );
    expect(mysqlUrl('mysql://erp@db.example/ledger?decimalNumbers=true&ssl={}')).toThrow(/decimalNumbers/);
    expect(mysqlUrl('mysql://erp@db.example/ledger?ssl={"rejectUnauthorized":true}')).not.toThrow();
  });
});
