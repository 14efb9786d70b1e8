import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { feedYaml } from '../../../src/init/feed-yaml.js';
import { inferDatabase } from '../../../src/init/infer-database.js';
import { parseLocationFlag } from '../../../src/init/location-flag.js';

const location = parseLocationFlag('postgres');
if (!location.ok || !('database' in location)) throw new Error('postgres is a database location');

const rows = (n: number, changed: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => [
    String(i + 1),
    changed(i),
    `2026-11-0${i + 1}`,
    `${i}.50`,
    `Miete ${i}`,
  ]);

const written = (
  changed: (i: number) => string,
  header = ['id', 'updated_at', 'booked_on', 'amount', 'memo'],
) => {
  const inference = inferDatabase(
    { label: 'bank_bookings', header, rows: rows(5, changed), capped: false },
    { table: 'bank_bookings' },
    {},
  );
  return feedYaml(inference, {
    name: 'bank_bookings',
    exportName: 'table bank_bookings',
    sourcePath: '',
    database: location,
  });
};

describe('init on a database sample', () => {
  it('guesses the cursor from a change-time column of timestamps with id as its tie-breaker', () => {
    const { text } = written((i) => `2026-11-01 10:00:0${i}.123456`);
    expect(parse(text).source.cursor).toEqual({ column: 'updated_at', tieBreaker: 'id' });
    expect(text).not.toMatch(/decimalSeparator:|dateFormat:|path:|format:/);
  });

  it('leaves the cursor out, commented with the reason, when the change-time column holds no timestamps', () => {
    const { text, decisions } = written((i) => `rev-${i}`);
    expect(parse(text).source).not.toHaveProperty('cursor');
    expect(text).toContain('# cursor: (left out');
    expect(text).toContain('every run reads every row');
    expect(decisions).toContainEqual(expect.objectContaining({ key: 'source.cursor', required: false }));
  });

  it('leaves the cursor out without a column named like a change time', () => {
    const { text } = written(
      (i) => `2026-11-01 10:00:0${i}`,
      ['id', 'created', 'booked_on', 'amount', 'memo'],
    );
    expect(parse(text).source).not.toHaveProperty('cursor');
    expect(text).toContain('no column named like updated_at');
  });
});
