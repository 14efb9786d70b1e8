import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/errors.js';
import { parseFeed } from '../../../src/config/load-feed.js';
import { notReconcilable } from '../../../src/sync/run/reconcile-run.js';

/** Issue 29: a feed whose source is a database table or query, as the issue writes it. */
const FEED = [
  'name: erp-bookings',
  'accountId: 1001',
  'kind: transactions',
  'source:',
  '  location: { type: postgres, urlEnv: ERP_DB_URL }',
  '  table: erp.bank_bookings',
  '  cursor: { column: updated_at, tieBreaker: id }',
  'mapping: { externalId: id, bookingDate: booked_on, amount: amount, purpose: memo }',
  'bankAccount: { externalId: giro, accountName: Giro, bankName: Bank }',
  '',
].join('\n');

function problems(text: string): string[] {
  try {
    parseFeed(text, '/feeds/erp.yaml');
  } catch (error) {
    if (error instanceof ConfigError) return error.message.split('\n').slice(1);
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('a database source in a feed', () => {
  it('has no path and no format: it is filed as a database source, its one export named by its table', () => {
    const loaded = parseFeed(FEED, '/feeds/erp.yaml');
    expect(loaded.feed.source).toEqual({
      format: 'database',
      location: { type: 'postgres', urlEnv: 'ERP_DB_URL' },
      table: 'erp.bank_bookings',
      cursor: { column: 'updated_at', tieBreaker: 'id' },
      timeZone: 'UTC',
      decimalSeparator: '.',
      dateFormat: 'yyyy-MM-dd',
    });
    expect(loaded.sourceGlob).toBe('erp.bank_bookings');
    const mysql = parseFeed(
      FEED.replace('type: postgres', 'type: mysql').replace(
        '  table: erp.bank_bookings',
        '  query: "SELECT * FROM b"',
      ),
      '/feeds/erp.yaml',
    );
    expect(mysql.feed.source).toMatchObject({ location: { type: 'mysql' }, query: 'SELECT * FROM b' });
    expect(mysql.sourceGlob).toBe('query');
  });

  it('names the key that is wrong: table and query both or neither, a file key, a table that is not a name', () => {
    expect(problems(FEED.replace('  table: erp.bank_bookings', '  table: t\n  query: "SELECT 1"'))).toEqual([
      '  - source.query: give table or query, not both',
    ]);
    expect(problems(FEED.replace('  table: erp.bank_bookings\n', ''))).toEqual([
      '  - source.table: give table (erp.bank_bookings) or query (SELECT ...): neither is set',
    ]);
    expect(problems(FEED.replace('  table: erp.bank_bookings', '  table: t\n  path: x.csv'))).toEqual([
      '  - source: Unrecognized key: "path" (path)',
    ]);
    expect(problems(FEED.replace('erp.bank_bookings', '"b; DROP TABLE x"'))[0]).toContain(
      'source.table: a table name, optionally schema-qualified',
    );
    expect(problems(FEED.replace('urlEnv: ERP_DB_URL', 'url: postgres://u:p@h/db'))[0]).toContain(
      'source.location',
    );
    expect(problems(`${FEED}watch: { everySeconds: 60 }\n`)).toEqual([
      '  - watch: a database source has no files to watch for: read it on a schedule (e.g. schedule: "*/5 * * * *")',
    ]);
  });

  it('is one reconcile compares (every row: docs/databases.md)', () => {
    expect(notReconcilable(parseFeed(FEED, '/feeds/erp.yaml').feed)).toBeUndefined();
  });
});
