import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/errors.js';
import { parseFeed } from '../../../src/config/load-feed.js';
import { overDefaults } from '../../../src/sources/field-mapping.js';
import { defaultMappingOf, SOURCE_FORMATS } from '../../../src/sources/formats/registry.js';

const DEFAULTS = {
  externalId: 'reference',
  bookingDate: 'bookingDate',
  amount: 'amount',
  purpose: { columns: ['purpose', 'details'], separator: ' ' },
};

describe("a format's default mapping under a feed's mapping", () => {
  it('is the whole mapping when the feed maps nothing', () => {
    expect(overDefaults(DEFAULTS)).toEqual(DEFAULTS);
    expect(overDefaults(DEFAULTS, {})).toEqual(DEFAULTS);
  });

  it('gives way field by field to what the feed maps, keeping the other defaults', () => {
    const merged = overDefaults(DEFAULTS, { purpose: 'purpose', currency: { const: 'EUR' } });
    expect(merged).toEqual({
      externalId: 'reference',
      bookingDate: 'bookingDate',
      amount: 'amount',
      purpose: 'purpose',
      currency: { const: 'EUR' },
    });
  });

  it('keeps a field the feed empties with {const: null} (the mapper then sends no value)', () => {
    expect(overDefaults(DEFAULTS, { externalId: { const: null } }).externalId).toEqual({ const: null });
  });

  it('never changes the default it was given', () => {
    overDefaults(DEFAULTS, { amount: 'other' });
    expect(DEFAULTS.amount).toBe('amount');
  });
});

describe('formats without a default mapping', () => {
  it('have none for any kind (csv, jsonl): their feeds still need a mapping section', () => {
    for (const kind of ['transactions', 'invoices', 'plans', 'bank-accounts'] as const) {
      expect(defaultMappingOf('csv', kind)).toBeUndefined();
      expect(defaultMappingOf('jsonl', kind)).toBeUndefined();
    }
    expect(Object.keys(SOURCE_FORMATS)).toContain('csv');
    const feed = `name: f\naccountId: 1\nkind: invoices\nsource: {path: a.csv, format: csv}\n`;
    let message = '';
    try {
      parseFeed(feed, '/feeds/f.yaml');
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      message = error.message;
    }
    expect(message.split('\n')).toEqual([
      '/feeds/f.yaml: invalid feed',
      '  - mapping: Invalid input: expected record, received undefined',
    ]);
  });
});
