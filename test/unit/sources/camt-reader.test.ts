import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Feed } from '../../../src/config/feed.js';
import { openText } from '../../../src/sources/decode.js';
import { FileStopError } from '../../../src/sources/file-stop.js';
import { readCamt } from '../../../src/sources/formats/camt-reader.js';
import { CAMT_COLUMNS } from '../../../src/sources/formats/camt-row.js';
import { CamtSource } from '../../../src/sources/formats/camt-source.js';
import { compileMapper } from '../../../src/sources/mapper.js';
import type { SourceRow } from '../../../src/sources/row.js';
import { camtRows } from '../../support/camt-rows.js';
import { fixtureWriter, readOutcomes } from '../../support/source-files.js';

const write = fixtureWriter('camt');

/** The demo's camt.053 statement (written for the demo, config/feeds/demo/exports/camt). */
const DEMO_STATEMENT = 'config/feeds/demo/exports/camt/camt053-raiffeisen-2026-02-04.xml';

const NS = (message: string) => `urn:iso:std:iso:20022:tech:xsd:${message}`;

/** A camt.053 statement around the given entries (account DE.., EUR), one element per line. */
function statement(entries: string, namespace = NS('camt.053.001.02')): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<Document xmlns="${namespace}">`,
    '<BkToCstmrStmt>',
    '<GrpHdr><MsgId>M1</MsgId></GrpHdr>',
    '<Stmt>',
    '<Id>S1</Id>',
    '<Acct><Id><IBAN>DE02120300000000202051</IBAN></Id><Ccy>EUR</Ccy></Acct>',
    '<Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">100.00</Amt><CdtDbtInd>CRDT</CdtDbtInd></Bal>',
    entries,
    '</Stmt>',
    '</BkToCstmrStmt>',
    '</Document>',
    '',
  ].join('\n');
}

/** One entry on one line: amount, mark, status, reference and what goes inside NtryDtls. */
function entry(o: {
  amount?: string;
  mark?: string;
  status?: string;
  ref?: string;
  extra?: string;
  details?: string;
}): string {
  return [
    '<Ntry>',
    o.amount === undefined ? '' : `<Amt Ccy="EUR">${o.amount}</Amt>`,
    `<CdtDbtInd>${o.mark ?? 'DBIT'}</CdtDbtInd>`,
    o.extra ?? '',
    `<Sts>${o.status ?? 'BOOK'}</Sts>`,
    '<BookgDt><Dt>2026-03-02</Dt></BookgDt><ValDt><Dt>2026-03-03</Dt></ValDt>',
    o.ref === undefined ? '' : `<AcctSvcrRef>${o.ref}</AcctSvcrRef>`,
    o.details === undefined ? '' : `<NtryDtls>${o.details}</NtryDtls>`,
    '</Ntry>',
  ].join('');
}

const ENTRY_LINE = 9;

async function stopOf(path: string): Promise<FileStopError> {
  try {
    await camtRows(path);
  } catch (error) {
    if (error instanceof FileStopError) return error;
    throw error;
  }
  throw new Error('expected a FileStopError');
}

describe('the camt reader: entries', () => {
  it('leaves out entries not booked, with the reason, unless includePending', async () => {
    const path = write(
      statement(
        [
          entry({ amount: '1.00', ref: 'A' }),
          entry({ amount: '2.00', status: 'PDNG', ref: 'B' }),
          entry({ amount: '3.00', status: 'INFO', ref: 'C' }),
        ].join('\n'),
        NS('camt.052.001.08'),
      )
        .replace(/BkToCstmrStmt/g, 'BkToCstmrAcctRpt')
        .replace(/Stmt>/g, 'Rpt>'),
      'xml',
    );
    const { rows } = await camtRows(path);
    expect(rows.map((r) => [r.line, r.cells.status, r.leftOut])).toEqual([
      [ENTRY_LINE, 'BOOK', undefined],
      [ENTRY_LINE + 1, 'PDNG', expect.stringContaining('pending (status PDNG)')],
      [ENTRY_LINE + 2, 'INFO', expect.stringContaining('for information only')],
    ]);
    const all = await camtRows(path, { includePending: true });
    expect(all.rows.map((r) => r.leftOut)).toEqual([undefined, undefined, undefined]);
  });

  it('signs by CdtDbtInd; a reversal keeps it (it is already the reversal booking) and the original roles', async () => {
    const parties =
      '<TxDtls><RltdPties><Dbtr><Nm>Us</Nm></Dbtr><Cdtr><Nm>Shop</Nm></Cdtr><CdtrAcct><Id><IBAN>DE89370400440532013000</IBAN></Id></CdtrAcct></RltdPties></TxDtls>';
    const { rows } = await camtRows(
      write(
        statement(
          [
            entry({ amount: '5.00', mark: 'DBIT', ref: 'pay', details: parties }),
            entry({
              amount: '5.00',
              mark: 'CRDT',
              ref: 'rev',
              extra: '<RvslInd>true</RvslInd>',
              details: parties,
            }),
          ].join('\n'),
        ),
        'xml',
      ),
    );
    expect(
      rows.map((r) => [r.cells.amount, r.cells.reversal, r.cells.counterpartyName, r.cells.counterpartyIban]),
    ).toEqual([
      ['-5.00', 'false', 'Shop', 'DE89370400440532013000'],
      ['5.00', 'true', 'Shop', 'DE89370400440532013000'],
    ]);
  });

  it('takes NtryRef without AcctSvcrRef, then EndToEndId, never NOTPROVIDED', async () => {
    const e2e = (id: string) => `<TxDtls><Refs><EndToEndId>${id}</EndToEndId></Refs></TxDtls>`;
    const { rows } = await camtRows(
      write(
        statement(
          [
            entry({ amount: '1', extra: '<NtryRef>N-1</NtryRef>', details: e2e('E-1') }),
            entry({ amount: '2', details: e2e('E-2') }),
            entry({ amount: '3', details: e2e('NOTPROVIDED') }),
          ].join('\n'),
        ),
        'xml',
      ),
    );
    expect(rows.map((r) => [r.cells.reference, r.cells.endToEndId])).toEqual([
      ['N-1', 'E-1'],
      ['E-2', 'E-2'],
      ['', ''],
    ]);
  });

  it('keeps a batch as one row when its details have no amounts, or amounts that do not add up', async () => {
    const detail = (amount: string | undefined, name: string) =>
      `<TxDtls>${amount ? `<AmtDtls><TxAmt><Amt Ccy="EUR">${amount}</Amt></TxAmt></AmtDtls>` : ''}<RltdPties><Cdtr><Nm>${name}</Nm></Cdtr></RltdPties><RmtInf><Ustrd>${name}</Ustrd></RmtInf></TxDtls>`;
    const btch = '<Btch><NbOfTxs>2</NbOfTxs></Btch>';
    const { rows } = await camtRows(
      write(
        statement(
          [
            entry({
              amount: '3.00',
              ref: 'no-amounts',
              details: btch + detail(undefined, 'A') + detail(undefined, 'B'),
            }),
            entry({
              amount: '3.00',
              ref: 'wrong-sum',
              details: btch + detail('1.00', 'A') + detail('1.50', 'B'),
            }),
            entry({
              amount: '3.00',
              ref: 'split',
              details: btch + detail('1.00', 'A') + detail('2.00', 'B'),
            }),
          ].join('\n'),
        ),
        'xml',
      ),
    );
    expect(rows.map((r) => [r.cells.amount, r.cells.reference, r.cells.counterpartyName])).toEqual([
      // One row for the entry: the counterparties belong to one detail each, so none is named.
      ['-3.00', 'no-amounts', ''],
      ['-3.00', 'wrong-sum', ''],
      ['-1.00', 'split/#1', 'A'],
      ['-2.00', 'split/#2', 'B'],
    ]);
  });

  it('reads a camt.054 notification (BkToCstmrDbtCdtNtfctn/Ntfctn) the same way', async () => {
    const xml = statement(entry({ amount: '4.20', ref: 'n-1' }), NS('camt.054.001.08'))
      .replace(/BkToCstmrStmt/g, 'BkToCstmrDbtCdtNtfctn')
      .replace(/Stmt>/g, 'Ntfctn>');
    const { rows } = await camtRows(write(xml, 'xml'));
    expect(rows.map((r) => [r.line, r.cells.message, r.cells.amount, r.cells.account])).toEqual([
      [ENTRY_LINE, 'camt.054.001.08', '-4.20', 'DE02120300000000202051'],
    ]);
  });

  it('reports an entry without an amount or with an unknown mark at its line, and reads on', async () => {
    const { rows, problems } = await camtRows(
      write(
        statement(
          [
            entry({ ref: 'no-amount' }),
            entry({ amount: '1,50', ref: 'comma' }),
            entry({ amount: '1.50', mark: 'CR', ref: 'mark' }),
            entry({ amount: '2.50', ref: 'fine' }),
          ].join('\n'),
        ),
        'xml',
      ),
    );
    expect(problems).toEqual([
      { line: ENTRY_LINE, problem: 'Ntry has no Amt' },
      { line: ENTRY_LINE + 1, problem: expect.stringContaining('Amt "1,50" is not an ISO 20022 amount') },
      { line: ENTRY_LINE + 2, problem: 'Ntry: CdtDbtInd "CR" is neither CRDT (credit) nor DBIT (debit)' },
    ]);
    expect(rows.map((r) => [r.line, r.cells.reference])).toEqual([[ENTRY_LINE + 3, 'fine']]);
  });

  it('joins Ustrd parts with a space, without one after a part cut at its 140 characters', async () => {
    const cut = 'x'.repeat(139);
    const ustrd = (parts: string[]) =>
      `<TxDtls><RmtInf>${parts.map((p) => `<Ustrd>${p}</Ustrd>`).join('')}</RmtInf></TxDtls>`;
    const { rows } = await camtRows(
      write(
        statement(
          [
            entry({
              amount: '1',
              ref: 'a',
              details: ustrd(['Rechnung 1', 'und 2', `${'y'.repeat(126)} und 3`]),
            }),
            entry({ amount: '1', ref: 'b', details: ustrd([`${cut}R`, 'E-42 Miete']) }),
          ].join('\n'),
        ),
        'xml',
      ),
    );
    expect(rows.map((r) => r.cells.purpose)).toEqual([
      `Rechnung 1 und 2 ${'y'.repeat(126)} und 3`,
      `${cut}RE-42 Miete`,
    ]);
  });

  it('decodes entities and CDATA, keeps a value without line breaks as it is', async () => {
    const details =
      '<TxDtls><RltdPties><Cdtr><Nm>M&amp;M  GmbH</Nm></Cdtr></RltdPties><RmtInf><Ustrd><![CDATA[Rechnung <42>]]></Ustrd></RmtInf></TxDtls>';
    const { rows } = await camtRows(write(statement(entry({ amount: '1.00', ref: 'x', details })), 'xml'));
    expect(rows[0]?.cells).toMatchObject({ counterpartyName: 'M&M  GmbH', purpose: 'Rechnung <42>' });
  });
});

describe('the camt reader: bad files', () => {
  const demo = readFileSync(DEMO_STATEMENT, 'utf8');

  it('a truncated file: the complete entries are rows, the one cut off is a problem at its line naming file and line', async () => {
    // Cut inside the third entry (it starts on line 204; the batch before it is two rows).
    const path = write(demo.split('\n').slice(0, 215).join('\n'), 'xml');
    const { rows, problems } = await camtRows(path);
    expect(rows.map((r) => r.line)).toEqual([63, 127, 164]);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.line).toBe(204);
    expect(problems[0]?.problem).toMatch(
      /^not well-formed XML \(.*f\d+\.xml:215:\d+: .*\): the entry starting on this line is incomplete/,
    );
  });

  it('a file broken between entries: a problem at the line of the error, nothing after it is read', async () => {
    const lines = demo.split('\n');
    lines.splice(203, 0, '</Oops>');
    const { rows, problems } = await camtRows(write(lines.join('\n'), 'xml'));
    expect(rows.map((r) => r.line)).toEqual([63, 127, 164]);
    expect(problems).toEqual([
      {
        line: 204,
        problem: expect.stringMatching(/^not well-formed XML .*nothing after this point is read$/),
      },
    ]);
  });

  it('an unknown version or message stops the file naming the namespace found and what is supported', async () => {
    const v9 = await stopOf(write(statement(entry({ amount: '1', ref: 'a' }), NS('camt.053.001.09')), 'xml'));
    expect(v9.code).toBe('CAMT_UNSUPPORTED');
    expect(v9.message).toContain('namespace "urn:iso:std:iso:20022:tech:xsd:camt.053.001.09"');
    expect(v9.message).toContain('versions .001.02 to .001.08');
    const other = await stopOf(write(statement('', NS('camt.086.001.02')), 'xml'));
    expect(other.message).toMatch(
      /^.*\.xml: not a supported camt message: the root element is <Document> in namespace "urn:iso:std:iso:20022:tech:xsd:camt\.086\.001\.02"/,
    );
    const none = await stopOf(write(statement('', ''), 'xml'));
    expect(none.message).toContain('in namespace ""');
    const wrongMessage = await stopOf(write(statement('', NS('camt.052.001.02')), 'xml'));
    expect(wrongMessage.message).toContain(
      '<BkToCstmrStmt> below the Document of camt.052.001.02 (expected <BkToCstmrAcctRpt>)',
    );
  });

  it('a file that is not XML stops naming the parser message', async () => {
    const error = await stopOf(write('Buchungstag;Betrag\n01.02.2026;1,00\n', 'xml'));
    expect(error.message).toMatch(
      /\.xml: not a camt message: the XML cannot be read \(.*\.xml:\d+:\d+: text data outside of root node/,
    );
  });
});

describe('a camt feed without a mapping section (the default mapping to transactions)', () => {
  const feed = (path: string, extra: Record<string, unknown> = {}) =>
    Feed.parse({
      name: 'camt',
      accountId: 1,
      kind: 'transactions',
      source: { format: 'camt', path },
      bankAccount: { externalId: 'giro', accountName: 'Giro', bankName: 'Bank' },
      ...extra,
    });

  it('maps the bank reference to externalId, the signed amount, dates, purpose and counterparty', async () => {
    const path = DEMO_STATEMENT;
    const outcomes = await readOutcomes(feed(path), path);
    expect(outcomes.map((o) => o.kind)).toEqual(Array(7).fill('mapped'));
    const [first] = outcomes;
    expect(first).toEqual({
      kind: 'mapped',
      record: {
        file: path,
        line: 63,
        externalId: '2026020300412270001',
        derivedId: false,
        amount: '1250',
        payload: {
          externalId: '2026020300412270001',
          bookingDate: '2026-02-03',
          valueDate: '2026-02-03',
          amount: 1250,
          currency: 'EUR',
          purpose: 'Rechnung 2026-0117 vom 19.01.2026 Konzert Fruehjahr Kundennr. 4471 Danke',
          counterpartyName: 'Gaertnerei Rosenhag',
          counterpartyIban: 'DE19740699110000080412',
        },
        // The booking it is: a later appearance as a batch finds its first part by that name.
        booking: {
          reference: '2026020300412270001',
          account: 'DE80740699110000033627',
          amount: '1250.00',
          date: '2026-02-03',
          line: 63,
          others: ['2026020300412270001/#1'],
        },
      },
    });
  });

  it("hands on each row's booking and its statement's account as read, not a copy per row; an own externalId gets the booking without its other shapes", async () => {
    const detail = (amount: string, name: string) =>
      `<TxDtls><AmtDtls><TxAmt><Amt Ccy="EUR">${amount}</Amt></TxAmt></AmtDtls><RltdPties><Cdtr><Nm>${name}</Nm></Cdtr></RltdPties></TxDtls>`;
    const path = write(
      statement(
        [
          entry({ amount: '1.00', ref: 'plain' }),
          entry({ amount: '3.00', ref: 'split', details: detail('1.00', 'A') + detail('2.00', 'B') }),
        ].join('\n'),
      ),
      'xml',
    );
    const rows: SourceRow[] = [];
    const source = CamtSource.parse({ path, format: 'camt' });
    for await (const batch of readCamt(path, openText(path, 'utf-8').text, source).batches)
      for (const item of batch) if (item.kind === 'row') rows.push(item.row);
    expect(rows.map((row) => row.booking?.others)).toEqual([['plain/#1'], ['split'], ['split']]);
    // Each part carries its batch's split, signed, in order: what the service's parts are compared with.
    expect(rows.map((row) => row.booking?.split)).toEqual([undefined, '-1.00 -2.00', '-1.00 -2.00']);
    const target = { externalId: 'giro', accountName: 'Giro', bankName: 'Bank' };
    const mapped = (extra: Record<string, unknown>) => {
      const map = compileMapper(feed(path, { bankAccount: undefined, ...extra }), CAMT_COLUMNS);
      return rows.map((row) => {
        const outcome = map(row);
        if (outcome.kind !== 'mapped') throw new Error(`expected a record, got ${JSON.stringify(outcome)}`);
        return outcome.record;
      });
    };
    const byDefault = mapped({ bankAccounts: { DE02120300000000202051: target } });
    byDefault.forEach((record, i) => {
      expect(record.booking).toBe(rows[i]?.booking);
    });
    expect(byDefault[0]?.route).toEqual({ account: 'DE02120300000000202051', currency: 'EUR' });
    expect(byDefault[1]?.route).toBe(byDefault[0]?.route);
    expect(byDefault[2]?.route).toBe(byDefault[0]?.route);
    // Mapped to another cell, the externalId names none of the booking's shapes in the service.
    const own = mapped({
      bankAccounts: { DE02120300000000202051: target },
      mapping: { externalId: 'endToEndId' },
    });
    // Nor is its split compared with what the service holds: the record has no split either.
    own.forEach((record, i) => {
      const { split: _, ...read } = rows[i]?.booking ?? { others: [] };
      expect(record.booking).toStrictEqual({ ...read, others: [] });
      expect(rows[i]?.booking?.others).not.toEqual([]);
    });
    expect(rows.filter((row) => row.booking?.split !== undefined)).not.toEqual([]);
  });

  it('derives the identity without a bank reference; a feed can override one field ({const: null})', async () => {
    const minimal = write(statement(entry({ amount: '8.85', mark: 'CRDT' })), 'xml');
    const [derived] = await readOutcomes(feed(minimal), minimal);
    expect(derived).toMatchObject({ kind: 'mapped', record: { derivedId: true, payload: { amount: 8.85 } } });
    const [own] = await readOutcomes(
      feed(DEMO_STATEMENT, { mapping: { externalId: { const: null } } }),
      DEMO_STATEMENT,
    );
    expect(own).toMatchObject({ kind: 'mapped', record: { derivedId: true } });
  });

  it('rejects an entry booked on 30 February naming the field, and sends the others', async () => {
    const path = write(
      statement(
        [
          entry({ amount: '1.00', ref: 'bad' }).replace('2026-03-02', '2026-02-30'),
          entry({ amount: '2.00', ref: 'ok' }),
        ].join('\n'),
      ),
      'xml',
    );
    const outcomes = await readOutcomes(feed(path), path);
    expect(outcomes.map((o) => o.kind)).toEqual(['rejected', 'mapped']);
    expect(outcomes[0]).toMatchObject({
      record: { line: ENTRY_LINE, code: 'INVALID_RECORD', message: expect.stringContaining('bookingDate') },
    });
  });

  it('reports a pending entry as excluded with its reason and amount; includePending maps it', async () => {
    const path = write(
      statement(
        [entry({ amount: '1.00', ref: 'booked' }), entry({ amount: '2.50', status: 'PDNG', ref: 'p' })].join(
          '\n',
        ),
      ),
      'xml',
    );
    const outcomes = await readOutcomes(feed(path), path);
    expect(outcomes.map((o) => o.kind)).toEqual(['mapped', 'excluded']);
    expect(outcomes[1]).toEqual({
      kind: 'excluded',
      record: {
        file: path,
        line: ENTRY_LINE + 1,
        amount: '-2.5',
        reason:
          'left out: pending (status PDNG): the bank books it later, and the booked entry is synced then (source.includePending reads it)',
      },
    });
    const included = await readOutcomes(
      feed(path, { source: { format: 'camt', path, includePending: true } }),
      path,
    );
    expect(included.map((o) => o.kind)).toEqual(['mapped', 'mapped']);
  });

  it('stops the file (layout) when the feed maps a cell camt does not have', async () => {
    const path = write(statement(entry({ amount: '1.00', ref: 'one' })), 'xml');
    const outcomes = await readOutcomes(feed(path, { mapping: { purpose: 'Verwendungszweck' } }), path);
    expect(outcomes).toEqual([
      {
        kind: 'rejected',
        record: expect.objectContaining({
          code: 'INVALID_RECORD',
          message: expect.stringContaining(
            'mapping.purpose: column "Verwendungszweck" is not in the header; the header has: bookingDate, valueDate, amount',
          ),
        }),
      },
    ]);
  });

  it('refuses a decimal comma or another date format at load: camt fixes both', () => {
    expect(() =>
      feed('x.xml', { source: { format: 'camt', path: 'x.xml', decimalSeparator: ',' } }),
    ).toThrow();
    expect(() =>
      feed('x.xml', { source: { format: 'camt', path: 'x.xml', dateFormat: 'dd.MM.yyyy' } }),
    ).toThrow();
  });
});
