import { describe, expect, it } from 'vitest';
import type { SourceEncoding } from '../../src/sources/formats/shared-keys.js';
import { readFile, rows } from '../support/mt940-items.js';
import { sharedSample } from './shared-samples.js';

/** The mt940 reader on real bank files of other projects, read in place from ../shared/samples. */
const readSample = (name: string, encoding?: SourceEncoding, keys?: Record<string, unknown>) =>
  readFile(sharedSample(name), encoding, keys);

describe('the mt940 reader on real bank files', () => {
  it('Sparkasse: SEPA tags and subfields re-joined where the bank broke them mid-word, funds code, NONREF', async () => {
    const items = await readSample('mt940-sparkasse.txt');
    expect(items.map((i) => [i.kind, i.line])).toEqual([
      ['row', 5],
      ['row', 16],
    ]);
    const [card, transfer] = rows(items);
    expect(card?.cells).toEqual({
      valueDate: '2019-02-18',
      bookingDate: '2019-02-18',
      amount: '-20.00',
      currency: 'EUR',
      mark: 'D',
      fundsCode: 'R',
      transactionType: 'N037',
      gvc: '106',
      postingText: 'KARTENZAHLUNG',
      primaNota: '9262',
      purpose: '2019-02-15T20.10 Debitk.4 2019-12',
      purposeText:
        'SVWZ+2019-02-15T20.10 Debitk.4 2019-12ABWA+Aral Tankstelle Chemnitz Leipziger Straße 257//Chemnitz/DE',
      ultimateDebtor: 'Aral Tankstelle Chemnitz Leipziger Straße 257//Chemnitz/DE',
      counterpartyName: 'ARAL AG',
      counterpartyIban: 'DE95430800830802029200',
      counterpartyBic: 'DRESDEFF430',
      textKeyExtension: '011',
      account: '87052000/123456789',
      statementReference: 'STARTUMSE',
      statement: '00000/001',
      messageType: 'MT940',
      status: 'booked',
    });
    // The bank reference is NONREF: no bankReference, so the default mapping derives an identity.
    expect(card?.cells.bankReference).toBeUndefined();
    expect(card?.text.split('\n')[0]).toBe(':61:1902180218DR20,00N037NONREF');
    expect(transfer?.cells).toMatchObject({
      bookingDate: '2019-02-19',
      amount: '-20.00',
      gvc: '177',
      postingText: 'ONLINE-UEBERWEISUNG',
      // A subfield shorter than 27 characters ("Apple Pay") is joined as written too: the bank's
      // text has no space there, and Volksbank's "inklusi"/"ve" shows that a short one may break mid-word.
      purpose: 'Apple PayDATUM 19.02.2019, 13.24 UHR1.TAN 002153',
      counterpartyName: 'Max Mustermann',
      // Broken over two lines mid-IBAN.
      counterpartyIban: 'DE12345678901234567890',
      counterpartyBic: 'NTSBDEB1XXX',
    });
  });

  it('Commerzbank: bank reference, supplementary details and every SEPA tag, split across subfields and lines', async () => {
    const [entry, ...rest] = await readSample('mt940-commerzbank.txt');
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({ kind: 'row', line: 5 });
    expect(entry?.kind === 'row' && entry.cells).toEqual({
      valueDate: '2020-06-08',
      bookingDate: '2020-06-08',
      amount: '-12.35',
      currency: 'EUR',
      mark: 'D',
      transactionType: 'NRTI',
      customerReference: 'KREF+',
      bankReference: '2016021783252833',
      supplementaryDetails: '/OCMT/EUR11,85//CHGS/EUR0,50/',
      gvc: '109',
      postingText: 'SEPA-LASTSCHR. RETOURE CORE',
      primaNota: '9075/629',
      purpose: 'SONSTIGE GRUENDE ENDABRECHNUNG NR. 500106875 ZU VERTRA400143254, KUNDENNUM MER 202227779',
      purposeText:
        'EREF+A1.200080779.400143254.4961336 KREF+SEPA-DA20200601221740-34972000-P1 MREF+20852HW2723821 CRED+DE41EON00000129793 OAMT+11,85 SVWZ+SONSTIGE GRUENDE ENDABRECHNUNG NR. 500106875 ZU VERTRA400143254, KUNDENNUM MER 202227779',
      endToEndReference: 'A1.200080779.400143254.4961336',
      sepaCustomerReference: 'SEPA-DA20200601221740-34972000-P1',
      // "MR" / "EF+2": the tag itself broken over two lines.
      mandateReference: '20852HW2723821',
      creditorId: 'DE41EON00000129793',
      originalAmount: '11,85',
      // ?32 TESTER + ?33 EL.
      counterpartyName: 'TESTEREL',
      counterpartyIban: 'DE50712345600200691329',
      counterpartyBic: 'CSDBDE71XXX',
      account: '25040066/0123456789',
      statementReference: '01LGX08DLMWH5GWA',
      statement: '00143/1',
      messageType: 'MT940',
      status: 'booked',
    });
  });

  it('Deutsche Bank: the same return as Commerzbank reads the same, under its own account', async () => {
    const [deutsche] = rows(await readSample('mt940-deutschebank.txt'));
    const [commerz] = rows(await readSample('mt940-commerzbank.txt'));
    expect(deutsche?.cells).toEqual({
      ...commerz?.cells,
      account: '20070000/0123456601',
      statementReference: 'DEUTDEMMXXX',
    });
  });

  it('ING: SWIFT blocks and trailer, no entry dates, free-text :86: over lines, a TAB and soft hyphens', async () => {
    const items = await readSample('mt940-ing.txt');
    expect(items.every((i) => i.kind === 'row')).toBe(true);
    const entries = rows(items);
    expect(
      entries.map((e) => [e.line, e.cells.amount, e.cells.bookingDate, e.cells.transactionType]),
    ).toEqual([
      [8, '-25.03', '2010-07-22', 'NOV'],
      [12, '-3.03', '2010-07-22', 'NOV'],
      [14, '-1.11', '2010-07-22', 'NGT'],
      [16, '-20.00', '2010-07-22', 'NGM'],
      [18, '-1.10', '2010-07-22', 'NGT'],
      [20, '3.68', '2010-07-22', 'NVZ'],
      [22, '1.00', '2010-07-23', 'NGT'],
    ]);
    expect(
      entries.every((e) => e.cells.valueDate === e.cells.bookingDate && e.cells.currency === 'EUR'),
    ).toBe(true);
    expect(entries[0]?.cells.purpose).toBe(
      'RC AFREKENING BETALINGSVERKEER BETREFT REKENING 4715589 PERIODE: 01-10-2010 / 31-12-2010 ING Bank N.V. tarifering ING',
    );
    expect(entries[1]?.cells.purpose).toBe('0111111111 GPSEOUL SPOEDBETALING MPBZS1016000047 GPSEOUL');
    expect(entries[2]?.cells).toMatchObject({
      customerReference: 'TMG TANGO',
      purpose:
        '0111111111 ING iDEAL KN: TMG TANGO TRANSACTIENR 0050000534527978 10-06-2010 15:32 TMG TANGO ING Bank inzake GPKyoto',
    });
    expect(entries[3]?.cells.purpose).toBe('ABN AMRO BANK>AMSTERDAM 22-07-2010 09:57 002 5595781');
    expect(entries[6]?.cells.purpose).toBe(
      '0111111111 Hr S Marechal ROSMALEN Hr S Marechal ROSMALEN Betaling transactiedatum: 22-07-2010',
    );
    // Free text has no subfields: no GVC, no counterparty fields guessed from it.
    expect(entries.some((e) => e.cells.gvc ?? e.cells.counterpartyName)).toBe(false);
  });

  it('LBBW: domestic account and bank code kept apart from IBAN and BIC, KREF+, zero-ish amounts', async () => {
    const [pool, collection] = rows(await readSample('mt940-lbbw.txt'));
    expect(pool?.cells).toMatchObject({
      amount: '-0.01',
      gvc: '834',
      postingText: 'KONTENPOOL',
      purpose: 'BUCHUNG AUF KTO 7402050699BANKLEITZAHL60050101',
      counterpartyAccount: '11111111',
      counterpartyBankCode: '60050101',
      relatedReference: 'NONREF',
    });
    expect(pool?.cells.counterpartyIban).toBeUndefined();
    expect(collection).toMatchObject({ line: 9 });
    expect(collection?.cells).toMatchObject({
      amount: '0.01',
      bankReference: '202102040007693',
      sepaCustomerReference: 'SEPA-20210203175805-00154800-P1',
      purpose: 'E-MOBILITY ABRECHNUNGNR. 28 ZU VERTRAG 9433, KUNDENNUMMER 11111',
      counterpartyName: 'NIC RICHTER',
      counterpartyIban: 'DE59600501010007907986',
      counterpartyBic: 'SOLADEST600',
    });
  });

  it('Sparkasse 2: a reversal of a debit (RD) is money in, booked on another day than its value date', async () => {
    const [storno] = rows(await readSample('mt940-sparkasse2.txt'));
    expect(storno?.cells).toMatchObject({
      mark: 'RD',
      fundsCode: 'R',
      amount: '1027.25',
      valueDate: '2020-02-01',
      bookingDate: '2020-02-19',
      gvc: '899',
      postingText: 'STORNO',
      purpose: 'STORNO RECHNUNGSABSCHLUSSPER 01.02.2020',
      counterpartyName: 'GEBÜHREN MANUELL GG UST-FREI',
      account: 'DE11222220220222220200',
    });
  });

  it('Sparkasse with an interim balance: LF line ends, a statement without entries, the same entries as the CRLF file', async () => {
    const interim = await readSample('mt940-sparkasse_interim_balance.txt');
    const crlf = await readSample('mt940-sparkasse.txt');
    expect(interim.map((i) => i.line)).toEqual([5, 16]);
    expect(rows(interim).map((r) => r.cells)).toEqual(rows(crlf).map((r) => r.cells));
  });

  it('Volksbank: eight statements in one file, subfields broken mid-word and mid-IBAN', async () => {
    const entries = rows(await readSample('mt940-volksbankenraiffeisenbanken.txt'));
    expect(entries).toHaveLength(12);
    expect(entries.every((e) => e.cells.mark === 'C' && e.cells.gvc !== undefined)).toBe(true);
    const total = entries.reduce((sum, e) => sum + Number(e.cells.amount), 0);
    expect(total).toBe(745);
    expect(new Set(entries.map((e) => e.cells.bookingDate)).size).toBe(8);
    expect(entries[1]?.cells).toMatchObject({
      purpose: 'Beitrag Musical fuer FRIDA inklusive 1 CD IBAN: DE10500105174381957749 BIC: KRHADE21',
      counterpartyName: 'friedbert und ronja engel',
    });
    expect(entries[3]?.cells).toMatchObject({
      endToEndReference: 'ZV0100284190949300000002',
      purpose:
        'Musical Sonja Schulz CD EREF: ZV0100284190949300000002 IBAN: DE88500105178285756556 BIC: SAKSDE55',
    });
    // PURP+ before SVWZ+ at the start of the next subfield.
    expect(entries[9]?.cells).toMatchObject({
      gvc: '152',
      purpose: 'Spende IBAN: DE31500105174278239442 BIC: NORSDE51',
    });
  });

  it('wolph whitespace: a :86: line starting with a space keeps it, the name re-joined over lines', async () => {
    const [entry] = rows(await readSample('mt940-wolph-whitespace.sta'));
    expect(entry?.cells).toMatchObject({
      amount: '-233.15',
      purpose: 'ERSTATTUNG AUSLANDSEINSATZENTGELT FUER VISA 4998 XXXXXXXX 1234',
      counterpartyName: 'DEUTSCHE KREDITBANK AG',
      counterpartyAccount: '9003932309',
      counterpartyBankCode: '12030000',
    });
  });

  it('wolph Sparkassen fragment: a file that ends in its entry (no closing balance, no end) refuses that entry, naming its line', async () => {
    // The broken amount and :86: tag of this fragment read joined in a whole statement: mt940-statement-edges.test.ts.
    expect(await readSample('mt940-wolph-sparkassen.sta')).toEqual([
      {
        kind: 'problem',
        line: 1,
        problem:
          'the file ends in the entry of this :61:, before its statement’s closing balance (:62F:) or end (-): the file may be cut short here, so the entry may be incomplete; it is not read',
      },
    ]);
  });

  it('wolph February 30: the entry is a problem naming its line and what was expected, not a record', async () => {
    const items = await readSample('mt940-wolph-february_30.sta');
    expect(items).toEqual([
      {
        kind: 'problem',
        line: 6,
        problem: expect.stringMatching(
          /^:61: value date "160230" \(YYMMDD\): .*not a calendar date \(read as day 30, month 2, year 2016\); the entry is not read$/,
        ),
      },
    ]);
  });

  it('wolph MT942: interim entries are pending and left out with the reason, unless includePending', async () => {
    const [entry, ...rest] = await readSample('mt940-wolph-mt942.sta');
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({
      kind: 'row',
      line: 7,
      leftOut: expect.stringMatching(/^pending: an entry of an MT942 interim report, not booked yet/),
      cells: {
        valueDate: '2016-10-30',
        bookingDate: '2016-10-31',
        amount: '-0.42',
        // From :34F:, the floor limit: an MT942 has no balance line.
        currency: 'EUR',
        bankReference: '055001022000001',
        supplementaryDetails: 'YAY MT942 CHG',
        purpose: 'REMIT:Costs to MT940 Parsing. This is Somuchfun.',
        account: 'GJB0291077111',
        messageType: 'MT942',
        status: 'pending',
      },
    });
    const [included] = await readSample('mt940-wolph-mt942.sta', 'auto', { includePending: true });
    expect(included).toMatchObject({ kind: 'row', cells: { status: 'pending' } });
    expect(included && 'leftOut' in included).toBe(false);
  });

  it('wolph Raiffeisen (code page 852): encoding auto refuses the file, naming the byte; iso-8859-1 reads it with wrong letters', async () => {
    // Code page 852 is no encoding the bridge decodes: `auto` finds 0x81, undefined in
    // Windows-1252, and stops the file rather than read Hungarian letters wrong.
    await expect(readSample('mt940-wolph-raiffeisen-cmi.sta')).rejects.toThrow(
      /line 14, byte offset 312 \(0x81\)/,
    );
    const entries = rows(await readSample('mt940-wolph-raiffeisen-cmi.sta', 'iso-8859-1'));
    expect(entries.map((e) => [e.line, e.cells.amount])).toEqual([
      [6, '2066637.00'],
      [13, '-14790.00'],
      [19, '-3051800.00'],
      [24, '-3892.77'],
      [28, '-789.24'],
      [32, '-1578.49'],
      [36, '-6000.00'],
    ]);
    expect(entries.every((e) => e.cells.currency === 'HUF' && e.cells.fundsCode === 'F')).toBe(true);
    expect(entries[2]?.cells.purpose).toBe('OLD18D038146 HUF 1.218.882,00 Carma Ex Varna');
    // "átutalás" in code page 852 read as ISO-8859-1: the letters are wrong, as documented.
    expect(entries[0]?.cells.supplementaryDetails).toBe(
      'Csoportos \u00a0tutal\u00a0s j\u00a2v\u00a0\u00a1r\u00a0sa',
    );
  });
});
