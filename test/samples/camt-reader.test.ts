import { describe, expect, it } from 'vitest';
import { camtRows } from '../support/camt-rows.js';
import { sharedSample as camtSample } from './shared-samples.js';

/** The camt reader on real files of other projects, read in place from ../shared/samples. */
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
