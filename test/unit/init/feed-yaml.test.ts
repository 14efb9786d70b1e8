import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ConfigError } from '../../../src/config/errors.js';
import { parseFeed } from '../../../src/config/load-feed.js';
import { findPlaceholders, isPlaceholder } from '../../../src/config/placeholder.js';
import { feedNameFor, namePattern, sourcePathFor } from '../../../src/init/export-name.js';
import { type FeedInference, inferFeed } from '../../../src/init/feed-inference.js';
import { feedYaml } from '../../../src/init/feed-yaml.js';
import { ask, guess, sure } from '../../../src/init/inferred.js';
import { segmentMatcher } from '../../../src/sources/glob.js';
import { sampledExport } from '../../support/memory-export.js';
import { DKB, SPARKASSE } from './exports.js';

const OPTIONS = {
  name: 'umsaetze',
  exportName: 'umsaetze-2026-01.csv',
  sourcePath: 'exports/umsaetze-*.csv',
};

/** An inference with every awkward value a feed may hold: quotes, `#`, `;`, leading spaces, umlauts, patterns. */
function awkward(overrides: Partial<FeedInference> = {}): FeedInference {
  return {
    sample: { bytes: 300, rows: 3, complete: true, rowsCapped: false },
    format: sure('csv', 'a delimited table'),
    source: [
      ['encoding', sure('windows-1252', 'not valid UTF-8 (byte 0xE4)')],
      ['delimiter', sure(';', '";" splits every row # and nothing else')],
      ['quote', guess('"', 'no quoted cell: the default')],
      ['skipLines', sure(4, 'the header is line 5')],
      ['headerPattern', sure('^"Buchungstag";"Wert', 'finds the header')],
      ['skipRowsMatching', guess(['^;*Endsaldo', '  Summe: #1'], 'balance lines')],
      ['decimalSeparator', sure(',', '"1.190,00" reads only with ","')],
      ['dateFormat', sure('dd.MM.yy', 'every value reads so')],
    ],
    kind: guess('transactions', 'no invoice columns', ['transactions', 'invoices']),
    mapping: {
      bookingDate: sure('Buchungstag', 'its name and values'),
      amount: sure(
        { column: 'Betrag (€)', sign: { column: 'S/H', negative: ['S'], positive: ['H'] } },
        'S/H',
      ),
      purpose: guess({ columns: ['Buchungstext', ' Verwendungszweck'], separator: ' ' }, 'joined'),
      counterpartyName: sure('Auftraggeber/Empfänger "x" #1', 'its name'),
      counterpartyIban: ask('two columns named like an IBAN', ['IBAN', { column: 7 }]),
    },
    exclude: guess([{ column: 'Info', equals: 'Umsatz vorgemerkt' }], 'pending bookings'),
    missing: [],
    identity: {
      idColumns: ['Buchungs-ID'],
      derivedFrom: [],
      externalId: guess('Buchungs-ID', 'named like an ID', ['Buchungs-ID', null]),
    },
    notes: ['column "Buchungstag": dates fit dd.MM.yy, dd.MM.yyyy'],
    ...overrides,
  };
}

/** The feed text with its placeholders filled in as a person would. */
const filled = (text: string): string =>
  text
    .replace(/^accountId: .*$/m, 'accountId: 1001')
    .replace(/^ {2}externalId: '<fill in.*$/m, '  externalId: giro')
    .replace(/^ {2}accountName: '<fill in.*$/m, '  accountName: Giro')
    .replace(/^ {2}bankName: '<fill in.*$/m, '  bankName: Musterbank');

describe('feedYaml: the commented feed init writes', () => {
  it('parses back to exactly the inferred values, awkward ones included', () => {
    const { text } = feedYaml(awkward(), OPTIONS);
    const doc = parse(text);
    expect(doc.name).toBe('umsaetze');
    expect(doc.kind).toBe('transactions');
    expect(doc.source).toEqual({
      path: 'exports/umsaetze-*.csv',
      format: 'csv',
      encoding: 'windows-1252',
      delimiter: ';',
      quote: '"',
      skipLines: 4,
      headerPattern: '^"Buchungstag";"Wert',
      skipRowsMatching: ['^;*Endsaldo', '  Summe: #1'],
      decimalSeparator: ',',
      dateFormat: 'dd.MM.yy',
    });
    expect(doc.mapping).toEqual({
      externalId: 'Buchungs-ID',
      bookingDate: 'Buchungstag',
      amount: { column: 'Betrag (€)', sign: { column: 'S/H', negative: ['S'], positive: ['H'] } },
      purpose: { columns: ['Buchungstext', ' Verwendungszweck'], separator: ' ' },
      counterpartyName: 'Auftraggeber/Empfänger "x" #1',
    });
    expect(doc.exclude).toEqual([{ column: 'Info', equals: 'Umsatz vorgemerkt' }]);
  });

  it('says of each setting how sure and why; a guess asks to be checked; an optional ask is commented out with its choices', () => {
    const { text, decisions } = feedYaml(awkward(), OPTIONS);
    expect(text).toContain('  # sure: "1.190,00" reads only with ","\n  decimalSeparator: ","');
    expect(text).toContain(
      '# guess: no invoice columns — check this; other choices: "invoices"\nkind: "transactions"',
    );
    expect(text).toContain(
      '  # ask: two columns named like an IBAN; choose one of: "IBAN", { column: 7 }\n  # counterpartyIban:',
    );
    expect(decisions).toContainEqual({
      key: 'mapping.counterpartyIban',
      what: 'the counterpartyIban, one of "IBAN", { column: 7 }',
      required: false,
    });
    // Every line is a comment, a key or blank: no reason spills over a line.
    for (const line of text.split('\n')) expect(line).toMatch(/^(\s*#.*|\s*[A-Za-z]+:.*|)$/);
  });

  it('leaves the account and the target bank account as placeholders the feed loader refuses, naming each', () => {
    const { text, decisions } = feedYaml(awkward(), OPTIONS);
    expect(decisions.filter((d) => d.required).map((d) => d.key)).toEqual([
      'accountId',
      'bankAccount.externalId',
      'bankAccount.accountName',
      'bankAccount.bankName',
    ]);
    let thrown: unknown;
    try {
      parseFeed(text, 'feed.yaml');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    const message = (thrown as Error).message;
    expect(message).toContain('feed.yaml: not filled in yet');
    expect(message).toContain('- accountId: fill in the customer account id');
    expect(message).toContain('- bankAccount.bankName: fill in the bank’s name');
  });

  it('filled in, it loads with the feed schema', () => {
    const loaded = parseFeed(filled(feedYaml(awkward(), OPTIONS).text), 'feed.yaml');
    expect(loaded.feed.accountId).toBe(1001);
    expect(loaded.feed.source).toMatchObject({ delimiter: ';', dateFormat: 'dd.MM.yy', skipLines: 4 });
    expect(loaded.feed.bankAccount).toMatchObject({ externalId: 'giro', bankName: 'Musterbank' });
  });

  it("an amount's sign markers are left out when they are the schema's defaults, kept otherwise", () => {
    const amount = sure(
      { column: 'Umsatz', sign: { column: 'S/H', negative: ['S', 'D', '-'], positive: ['H', 'C', '+'] } },
      'S/H',
    );
    const { text } = feedYaml(awkward({ mapping: { ...awkward().mapping, amount } }), OPTIONS);
    expect(text).toContain('  amount: { column: "Umsatz", sign: { column: "S/H" } }\n');
    expect(parseFeed(filled(text), 'feed.yaml').feed.mapping.amount).toEqual(amount.value);
    expect(feedYaml(awkward(), OPTIONS).text).toContain(
      'sign: { column: "S/H", negative: [ "S" ], positive: [ "H" ] }',
    );
  });

  it('--account-id: written as the account, not asked', () => {
    const { text, decisions } = feedYaml(awkward(), { ...OPTIONS, accountId: 42 });
    expect(parse(text).accountId).toBe(42);
    expect(decisions.map((d) => d.key)).not.toContain('accountId');
  });

  it('an asked dateFormat is a placeholder with both readings, never a pick; the loader refuses it', () => {
    const source = awkward().source.map(([key, setting]): [string, typeof setting] =>
      key === 'dateFormat'
        ? [key, ask('day and month cannot be told apart', ['dd/MM/yyyy', 'MM/dd/yyyy'])]
        : [key, setting],
    );
    const { text, decisions } = feedYaml(awkward({ source }), { ...OPTIONS, accountId: 1 });
    expect(text).toContain(`  dateFormat: '<fill in: the dateFormat, one of "dd/MM/yyyy", "MM/dd/yyyy">'`);
    expect(decisions).toContainEqual({
      key: 'source.dateFormat',
      what: 'the dateFormat, one of "dd/MM/yyyy", "MM/dd/yyyy"',
      required: true,
    });
    expect(() => parseFeed(filled(text), 'feed.yaml')).toThrow(
      /source\.dateFormat: fill in the dateFormat, one of "dd\/MM\/yyyy", "MM\/dd\/yyyy"/,
    );
  });

  it('an asked required field (no column found) is a placeholder listing the columns that could be it', () => {
    const mapping = { ...awkward().mapping, amount: ask('no column named like amount', ['Soll', 'Haben']) };
    const { decisions } = feedYaml(awkward({ mapping }), OPTIONS);
    expect(decisions).toContainEqual({
      key: 'mapping.amount',
      what: 'the amount, one of "Soll", "Haben"',
      required: true,
    });
  });

  it('the derived identity: no externalId key, the reason said', () => {
    const identity = {
      idColumns: [],
      derivedFrom: ['bookingDate', 'amount'],
      externalId: sure(null, 'the derived identity (docs/identity.md), built from bookingDate, amount'),
    };
    const { text } = feedYaml(awkward({ identity }), OPTIONS);
    expect(parse(text).mapping.externalId).toBeUndefined();
    expect(text).toContain(
      '  # sure: the derived identity (docs/identity.md), built from bookingDate, amount',
    );
  });

  it.each([
    ['Sparkasse', SPARKASSE],
    ['DKB', DKB],
  ])(
    '%s: the inferred feed, filled in, loads with the schema and keeps every inferred value',
    async (_name, text) => {
      const result = await inferFeed(sampledExport(text));
      if (!result.ok) throw new Error(result.problem);
      const { inference } = result;
      const yaml = feedYaml(inference, OPTIONS);
      const loaded = parseFeed(filled(yaml.text), 'feed.yaml');
      const source: Record<string, unknown> = loaded.feed.source;
      for (const [key, setting] of inference.source) expect(source[key]).toEqual(setting.value);
      for (const [field, setting] of Object.entries(inference.mapping))
        if (setting.certainty !== 'ask') expect(loaded.feed.mapping[field]).toEqual(setting.value);
    },
  );
});

describe('placeholders', () => {
  it('are found wherever they stand, with their key path; other text is not one', () => {
    expect(
      findPlaceholders({
        a: 1,
        b: { c: ['x', '<fill in: the c>'] },
        d: '  <FILL IN: shouted>',
        e: 'fill in',
      }),
    ).toEqual([
      { key: 'b.c.1', what: 'the c' },
      { key: 'd', what: 'shouted' },
    ]);
    expect(isPlaceholder('<fill-in>')).toBe(false);
  });

  it('a placeholder where its text would be valid (a constant) is still refused', () => {
    const text = filled(feedYaml(awkward(), OPTIONS).text).replace(
      '  bookingDate: "Buchungstag"',
      '  bookingDate: "Buchungstag"\n  currency: { const: "<fill in: the currency>" }',
    );
    expect(() => parseFeed(text, 'feed.yaml')).toThrow(/mapping\.currency\.const: fill in the currency/);
  });
});

describe('the export series: source.path and the feed name', () => {
  it.each([
    ['umsaetze-2026-01.csv', 'umsaetze-*.csv', 'umsaetze'],
    ['Export_20260131_4711.CSV', 'Export_*.CSV', 'export'],
    ['Umsätze Girokonto 01.2026.csv', 'Umsätze Girokonto *.csv', 'umsaetze-girokonto'],
    ['bank.csv', 'bank.csv', 'bank'],
    ['2026-01.csv', '*.csv', 'feed'],
  ])('%s -> %s, name %s', (file, pattern, name) => {
    expect(namePattern(file)).toBe(pattern);
    // The glob reads the export it was made from.
    expect(segmentMatcher(namePattern(file))(file)).toBe(true);
    expect(feedNameFor(`/in/${file}`)).toBe(name);
  });

  it('relative to the feed file’s folder', () => {
    expect(sourcePathFor('/p/exports/umsaetze-2026-01.csv', '/p/config/feeds/u.yaml')).toBe(
      '../../exports/umsaetze-*.csv',
    );
    expect(sourcePathFor('/p/config/feeds/exports/a-1.csv', '/p/config/feeds/u.yaml')).toBe(
      'exports/a-*.csv',
    );
    expect(sourcePathFor('/p/a-1.csv', '/p/u.yaml')).toBe('a-*.csv');
  });
});
