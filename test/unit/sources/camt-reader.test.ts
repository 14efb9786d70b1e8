import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Feed } from '../../../src/config/feed.js';
import { FileStopError } from '../../../src/sources/file-stop.js';
import { camtRows, camtSample } from '../../support/camt-rows.js';
import { fixtureWriter, readOutcomes } from '../../support/source-files.js';

const write = fixtureWriter('camt');

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

describe('the camt reader on the real samples', () => {
  it('VR-Bank camt.053.001.04: six entries, the batch split into its two transactions', async () => {
    const { rows, problems } = await camtRows(camtSample('camt053-vr-bank.xml'));
    expect(problems).toEqual([]);
    expect(rows.map((r) => [r.line, r.cells.amount, r.cells.reference])).toEqual([
      [63, '0.60', '2013123001153870000'],
      [125, '0.50', '2013123001153870001'],
      [187, '-89.85', '640387810124072/2'],
      [219, '1.20', '2014010509572410000'],
      [272, '-80', '367406715024072/1'],
      // The batch entry (3.45, line 358) as its two transactions, at their TxDtls lines: each
      // row's reference is the booking's (AcctSvcrRef) and its place in the batch.
      [371, '2.25', '2014010303263400000/#1'],
      [416, '1.20', '2014010303263400000/#2'],
    ]);
    const [first, , card, returned, qr, batch] = rows;
    expect(first?.cells).toMatchObject({
      bookingDate: '2013-12-30',
      valueDate: '2013-12-30',
      currency: 'EUR',
      status: 'BOOK',
      account: 'DE14740618130000033626',
      accountCurrency: 'EUR',
      statementId: '0352C5320140103220142',
      message: 'camt.053.001.04',
      endToEndId: 'STZV-EtE28122013-11:29-1',
      // A credit: the counterparty is the debtor. The purpose's line breaks (wrapped in the XML) are spaces.
      counterpartyName: 'Testkonto Nummer 2',
      counterpartyIban: 'DE58740618130100033626',
      purpose:
        'Sammler aus Testknto 2 Zweite Ueberweisung EREF: STZV-EtE28122013-11:29-1 IBAN: DE58740618130100033626 BIC: GENODEF1PFK ABWE: Testkonto 1',
      bankTransactionCode: 'NMSC+051',
    });
    // No remittance information: the entry's additional information is the purpose.
    expect(card?.cells).toMatchObject({
      bookingDate: '2024-03-12',
      valueDate: '2024-03-11',
      purpose: 'Supermarkt A',
      bankTransactionCode: 'PMNT/CCRD/POSD',
      counterpartyName: '',
    });
    // Two Ustrd parts, the first cut at its 140 characters mid-reference: joined without a space.
    expect(returned?.cells.purpose).toBe(
      'Retoure SEPA Lastschrift vom 03.01.2014, Rueckgabegrund: MD06 Lastschriftwiderspruch durch den Zahlungspflichtigen EREF: STZV-EtE27122013-11:05-2 CRED: DE79ZZZ00000000584 IBAN: DE14740618130000033626 BIC: GENODEF1PFK ABWE: Testkonto',
    );
    // A debit: the creditor; the Swiss QR reference (structured) is the purpose.
    expect(qr?.cells).toMatchObject({
      counterpartyName: 'Rega',
      counterpartyIban: 'CH803000000',
      structuredReference: '002462',
      purpose: '002462',
    });
    expect(batch?.cells).toMatchObject({
      purpose: 'Lastschrift 2. Zahlung TAN:747216',
      counterpartyName: 'Testkonto Nummer 2',
      accountServicerReference: '2014010303263400000',
    });
  });

  it('Actual payee-memo camt.053.001.04: debits with and without creditor name and purpose, comments between', async () => {
    const { rows } = await camtRows(camtSample('actual-camt.053.payee-memo.xml'));
    expect(
      rows.map((r) => [r.cells.amount, r.cells.counterpartyName, r.cells.purpose, r.cells.reference]),
    ).toEqual([
      ['-10.00', 'Payee Name', 'Note Text', 'test-payee-and-notes'],
      ['-20.00', 'Payee Name Only', '', 'test-payee-only'],
      ['-30.00', '', 'Note Only Text', 'test-notes-only'],
      ['-40.00', '', '', 'test-neither'],
    ]);
  });

  it('Actual tracking-number: no header, balances, status or value date', async () => {
    const { rows } = await camtRows(camtSample('actual-camt.053.tracking-number.xml'));
    expect(rows.map((r) => [r.cells.amount, r.cells.status, r.cells.valueDate, r.cells.account])).toEqual([
      ['-10.00', '', '', ''],
      ['-20.00', '', '', ''],
    ]);
    // No status in a statement is a booked entry.
    expect(rows.every((r) => r.leftOut === undefined)).toBe(true);
  });

  it('genkgo camt.052.001.02: a report, booking as DtTm, account by Othr/Id, one TxDtls of a batch of 20', async () => {
    const { rows } = await camtRows(camtSample('camt-camt052.v2.xml'));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.cells).toMatchObject({
      message: 'camt.052.001.02',
      bookingDate: '2007-10-18',
      amount: '-200000',
      currency: 'SEK',
      account: 'CH2801234000123456789',
      counterpartyName: 'Company Name',
    });
  });

  it('genkgo five decimals: the amount text is kept exactly (three fraction digits)', async () => {
    const { rows } = await camtRows(camtSample('camt-camt053.v2.five.decimals.xml'));
    expect(rows.map((r) => r.cells.amount)).toEqual(['8.850']);
  });

  it('genkgo multi statement: both statements, each with its own id', async () => {
    const { rows } = await camtRows(camtSample('camt-camt053.v2.multi.statement.xml'));
    expect(rows.map((r) => [r.cells.statementId, r.cells.amount, r.cells.reference])).toEqual([
      ['253EURNL26VAYB8060476890', '8.85', '000000001'],
      ['254EURNL26VAYB8060476890', '-7.00', '000000002'],
    ]);
  });

  it('genkgo all balance types: ten balances, one entry (balances are not rows)', async () => {
    const { rows } = await camtRows(camtSample('camt-camt053.v2.all-balance-types.xml'));
    expect(rows.map((r) => r.cells.amount)).toEqual(['8.850']);
  });

  it('genkgo camt.053.001.08: Sts/Cd, DtTm, the Pty wrapper of v8, account by Othr/Id', async () => {
    const { rows } = await camtRows(camtSample('camt053-v8.xml'));
    expect(rows[0]?.cells).toMatchObject({
      message: 'camt.053.001.08',
      status: 'BOOK',
      bookingDate: '2014-12-31',
      debtorName: 'NAME NAME',
      creditorName: 'Company Name',
      counterpartyName: 'NAME NAME',
      account: 'NL26VAYB8060476890',
      endToEndId: 'MUELL/FINP/RA12345',
      reference: 'AAAASESS-FP-CN_98765/01',
    });
  });

  it('genkgo v2 minimal and v4: no bank reference in v2 (derived identity), the structured SCOR reference as purpose', async () => {
    const v2 = await camtRows(camtSample('camt053-v2-minimal.xml'));
    expect(v2.rows[0]?.cells).toMatchObject({
      reference: '',
      purpose: '4654654654654654',
      reversal: 'false',
    });
    const v4 = await camtRows(camtSample('camt-camt053.v4.xml'));
    expect(v4.rows[0]?.cells).toMatchObject({
      reference: 'AAAASESS-FP-CN_98765/01',
      purpose: '4654654654654654',
    });
  });
});

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
  const vrBank = readFileSync(camtSample('camt053-vr-bank.xml'), 'utf8');

  it('a truncated file: the complete entries are rows, the one cut off is a problem at its line naming file and line', async () => {
    // Cut inside the third entry (it starts on line 187).
    const path = write(vrBank.split('\n').slice(0, 200).join('\n'), 'xml');
    const { rows, problems } = await camtRows(path);
    expect(rows.map((r) => r.line)).toEqual([63, 125]);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.line).toBe(187);
    expect(problems[0]?.problem).toMatch(
      /^not well-formed XML \(.*f\d+\.xml:200:\d+: .*\): the entry starting on this line is incomplete/,
    );
  });

  it('a file broken between entries: a problem at the line of the error, nothing after it is read', async () => {
    const lines = vrBank.split('\n');
    lines.splice(186, 0, '</Oops>');
    const { rows, problems } = await camtRows(write(lines.join('\n'), 'xml'));
    expect(rows.map((r) => r.line)).toEqual([63, 125]);
    expect(problems).toEqual([
      {
        line: 187,
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
    const path = camtSample('camt053-vr-bank.xml');
    const outcomes = await readOutcomes(feed(path), path);
    expect(outcomes.map((o) => o.kind)).toEqual(Array(7).fill('mapped'));
    const [first] = outcomes;
    expect(first).toEqual({
      kind: 'mapped',
      record: {
        file: path,
        line: 63,
        externalId: '2013123001153870000',
        derivedId: false,
        amount: '0.6',
        payload: {
          externalId: '2013123001153870000',
          bookingDate: '2013-12-30',
          valueDate: '2013-12-30',
          amount: 0.6,
          currency: 'EUR',
          purpose:
            'Sammler aus Testknto 2 Zweite Ueberweisung EREF: STZV-EtE28122013-11:29-1 IBAN: DE58740618130100033626 BIC: GENODEF1PFK ABWE: Testkonto 1',
          counterpartyName: 'Testkonto Nummer 2',
          counterpartyIban: 'DE58740618130100033626',
        },
        // The booking it is: a later appearance as a batch finds its first part by that name.
        booking: {
          reference: '2013123001153870000',
          account: 'DE14740618130000033626',
          amount: '0.60',
          date: '2013-12-30',
          line: 63,
          others: ['2013123001153870000/#1'],
        },
      },
    });
  });

  it('derives the identity without a bank reference; a feed can override one field ({const: null})', async () => {
    const minimal = camtSample('camt053-v2-minimal.xml');
    const [derived] = await readOutcomes(feed(minimal), minimal);
    expect(derived).toMatchObject({ kind: 'mapped', record: { derivedId: true, payload: { amount: 8.85 } } });
    const v8 = camtSample('camt053-v8.xml');
    const [own] = await readOutcomes(feed(v8, { mapping: { externalId: { const: null } } }), v8);
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
    const path = camtSample('camt053-v8.xml');
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
