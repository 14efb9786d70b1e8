import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type FeedInference, inferFeed } from '../../../src/init/feed-inference.js';
import { readSample, SAMPLE_BYTES, SAMPLE_ROWS } from '../../../src/init/sample.js';
import { sampledExport } from '../../support/memory-export.js';
import { rowOf, writeBookingsWorkbook, xlsxOf, xlsxParts, zipOf } from '../../support/xlsx-files.js';

/**
 * init tells every format erp-bridge reads apart by content (never by the file's name) and infers
 * it in the one shape FeedInference: each export below is written here, as its bank or ERP writes it.
 */

const sample = sampledExport;

async function inferred(content: string | Buffer): Promise<FeedInference> {
  const result = await inferFeed(sample(content));
  if (!result.ok) throw new Error(result.problem);
  return result.inference;
}

const sourceOf = (inference: FeedInference) =>
  Object.fromEntries(inference.source.map(([key, setting]) => [key, setting.value]));

const entry = (amount: string, mark: 'CRDT' | 'DBIT', ref: string) =>
  `<Ntry><Amt Ccy="EUR">${amount}</Amt><CdtDbtInd>${mark}</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-03-02</Dt></BookgDt><ValDt><Dt>2026-03-03</Dt></ValDt><AcctSvcrRef>${ref}</AcctSvcrRef></Ntry>`;

const camtStatement = (id: string, iban: string, entries: string) =>
  `<Stmt><Id>${id}</Id><CreDtTm>2026-03-02T20:00:00</CreDtTm><Acct><Id><IBAN>${iban}</IBAN></Id><Ccy>EUR</Ccy></Acct>${entries}</Stmt>`;

/** A camt.053 of two accounts, each a statement of its own. */
const CAMT_TWO_ACCOUNTS = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><GrpHdr><MsgId>M1</MsgId><CreDtTm>2026-03-02T20:00:00</CreDtTm></GrpHdr>
${camtStatement('S1', 'DE89370400440532013000', entry('12.50', 'DBIT', 'R1') + entry('100.00', 'CRDT', 'R2'))}
${camtStatement('S2', 'DE02120300000000202051', entry('7.00', 'DBIT', 'R3'))}
</BkToCstmrStmt></Document>
`;

/** An MT940 of one account in SWIFT blocks, as some banks' download gives it. */
const MT940_SWIFT = [
  '{1:F01DEUTDEFFAXXX0000000000}{2:O9400000260302DEUTDEFFAXXX00000000002603020000N}{4:',
  ':20:STARTUMSE',
  ':25:DE89370400440532013000',
  ':28C:00031/001',
  ':60F:C260301EUR100,00',
  ':61:2603020302DR12,50NMSCNONREF//B1',
  ':86:166?00LASTSCHRIFT?20SVWZ+Miete',
  ':61:2603020302CR100,00NTRFNONREF//B2',
  ':86:166?00GUTSCHRIFT?20SVWZ+Gehalt',
  ':62F:C260302EUR187,50',
  '-}',
  '',
].join('\r\n');

const DATEV_META =
  '"EXTF";700;21;"Buchungsstapel";13;20260305093012000;;"RE";"Buchhaltung";"";29098;55003;20260101;4;20260201;20260228;"Februar 2026";"IH";1;;0;"EUR";;"";;;"03";;;"";""';

/** A DATEV booking batch: bookings on the bank account (1200) and an invoice on a customer account. */
const DATEV_BATCH = [
  DATEV_META,
  'Umsatz (ohne Soll/Haben-Kz);Soll/Haben-Kennzeichen;WKZ Umsatz;Konto;Gegenkonto (ohne BU-Schlüssel);Belegdatum;Belegfeld 1;Buchungstext',
  '119,00;S;"EUR";1200;10001;0302;"RE-1";"Zahlung Kunde"',
  '45,10;H;"EUR";1200;4930;0402;"K-7";"Bürobedarf"',
  '238,00;S;"EUR";10001;8400;0502;"RE-2";"Rechnung"',
  '',
].join('\r\n');

describe('init detects each format by content and infers it', () => {
  it('camt.053 of two accounts: transactions by the default mapping, both accounts listed, bankAccounts: auto suggested', async () => {
    const inference = await inferred(CAMT_TWO_ACCOUNTS);
    expect(inference.format).toMatchObject({ value: 'camt', certainty: 'sure' });
    expect(inference.kind).toMatchObject({ value: 'transactions', certainty: 'sure' });
    expect(inference.mapping).toEqual({});
    expect(inference.missing).toEqual([]);
    expect(inference.source.map(([key]) => key)).toEqual(['encoding', 'includePending']);
    expect(sourceOf(inference)).toMatchObject({ encoding: 'utf-8', includePending: false });
    // null beside an empty mapping: the default mapping's externalId (the reference) applies.
    expect(inference.identity.externalId).toMatchObject({ value: null, certainty: 'sure' });
    expect(inference.identity.externalId.reason).toContain('(reference)');
    expect(inference.sample.rows).toBe(3);
    const notes = inference.notes.join('\n');
    expect(notes).toContain('DE89370400440532013000');
    expect(notes).toContain('DE02120300000000202051');
    expect(notes).toContain('bankAccounts: auto');
  });

  it('camt told by its message element when the namespace is not on the root', async () => {
    const inference = await inferred(
      CAMT_TWO_ACCOUNTS.replace(
        '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>',
        '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">\n<BkToCstmrStmt >',
      ).replace('<?xml version="1.0" encoding="UTF-8"?>', '<?xml version="1.0"?><!-- bank export -->'),
    );
    expect(inference.format.value).toBe('camt');
  });

  it('MT940 in SWIFT blocks: transactions, the account of :25:, bankAccount with its iban', async () => {
    const inference = await inferred(MT940_SWIFT);
    expect(inference.format).toMatchObject({ value: 'mt940', certainty: 'sure' });
    expect(inference.kind).toMatchObject({ value: 'transactions', certainty: 'sure' });
    expect(inference.mapping).toEqual({});
    expect(inference.identity.externalId.value).toBeNull();
    expect(inference.identity.externalId.reason).toContain('(bankReference)');
    expect(inference.sample.rows).toBe(2);
    const notes = inference.notes.join('\n');
    expect(notes).toContain('DE89370400440532013000');
    expect(notes).toContain('iban: DE89370400440532013000');
  });

  it('MT940 in SOH/ETX framing with a :940: line', async () => {
    const framed = `\x01\r\n:940:\r\n${MT940_SWIFT.split('\r\n').slice(1, -2).join('\r\n')}\r\n-\r\n\x03\r\n`;
    const inference = await inferred(framed);
    expect(inference.format.value).toBe('mt940');
    // ABN AMRO's header lines: BIC, message type, BIC.
    const abn = `ABNANL2A\r\n940\r\nABNANL2A\r\n${MT940_SWIFT.split('\r\n').slice(1, -2).join('\r\n')}\r\n-\r\n`;
    expect((await inferred(abn)).format.value).toBe('mt940');
  });

  it('a DATEV booking batch: its added cells mapped, the amount sign a guess, the bank account asked', async () => {
    const inference = await inferred(Buffer.from(DATEV_BATCH, 'latin1'));
    expect(inference.format).toMatchObject({ value: 'datev', certainty: 'sure' });
    expect(inference.source.map(([key]) => key)).toEqual(['encoding']);
    expect(sourceOf(inference)).toEqual({ encoding: 'windows-1252' });
    expect(inference.kind).toMatchObject({ value: 'transactions', certainty: 'guess' });
    expect(inference.mapping.amount).toMatchObject({ value: 'signedAmount', certainty: 'guess' });
    expect(inference.mapping.bookingDate?.value).toBe('documentDate');
    expect(inference.mapping.currency?.value).toBe('currency');
    expect(inference.mapping.purpose?.value).toBe('Buchungstext');
    expect(inference.exclude?.certainty).toBe('ask');
    expect(inference.exclude?.candidates).toContainEqual([{ column: 'Konto', matches: '^(?!1200$)' }]);
    expect(inference.sample.rows).toBe(3);
  });

  it('an xlsx workbook: the first sheet read through the xlsx reader, its columns mapped', async () => {
    const workbook = xlsxOf({
      sheets: [
        {
          name: 'Umsätze',
          rows: [
            rowOf(1, ['Buchungstag', 'Betrag', 'Verwendungszweck']),
            rowOf(2, ['02.03.2026', { n: '-12.5' }, 'Miete']),
            rowOf(3, ['03.03.2026', { n: '2480' }, 'Gehalt']),
            rowOf(4, ['14.03.2026', { n: '-3.1' }, 'Kantine']),
          ].join(''),
        },
      ],
    });
    const inference = await inferred(workbook);
    expect(inference.format).toMatchObject({ value: 'xlsx', certainty: 'sure' });
    expect(sourceOf(inference)).toMatchObject({
      sheet: 'Umsätze',
      dateFormat: 'dd.MM.yyyy',
      decimalSeparator: '.',
    });
    expect(inference.mapping.bookingDate?.value).toBe('Buchungstag');
    expect(inference.mapping.amount).toMatchObject({ value: 'Betrag', certainty: 'sure' });
    expect(inference.mapping.purpose?.value).toBe('Verwendungszweck');
  });

  it('an xlsx with a title above its table: the header found by a headerPattern, the title left out', async () => {
    const workbook = xlsxOf({
      sheets: [
        { name: 'Hilfstabelle', rows: rowOf(1, ['x', 'y']), state: 'hidden' },
        {
          name: 'Offene Posten',
          rows: [
            rowOf(1, ['Offene Posten Debitoren, Stand 28.02.2026']),
            rowOf(3, ['Beleg-Nr.', 'Kunde', 'Belegdatum', 'Fällig am', 'Brutto']),
            rowOf(4, ['RE-1', 'Muster GmbH', '01.02.2026', '03.03.2026', { n: '119' }]),
            rowOf(5, ['RE-2', 'Beispiel AG', '05.02.2026', '07.03.2026', { n: '238.5' }]),
            rowOf(6, ['RE-3', 'Muster GmbH', '09.02.2026', '11.03.2026', { n: '59.99' }]),
          ].join(''),
        },
      ],
    });
    const inference = await inferred(workbook);
    expect(sourceOf(inference)).toMatchObject({
      sheet: 'Offene Posten',
      headerPattern: '^Beleg-Nr\\.\\tKunde\\t',
    });
    expect(inference.sample.rows).toBe(3);
    expect(inference.kind.value).toBe('invoices');
    expect(inference.mapping.invoiceNumber?.value).toBe('Beleg-Nr.');
    expect(inference.mapping.dueDate?.value).toBe('Fällig am');
    expect(inference.mapping.totalGrossAmount?.value).toBe('Brutto');
  });

  it('an xlsx larger than the sample: read in ranges (its zip index is at its end), its columns mapped; reading stops after SAMPLE_ROWS rows', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'erp-bridge-init-xlsx-'));
    try {
      const path = join(dir, 'umsaetze.xlsx');
      await writeBookingsWorkbook(path, 60_000);
      const size = statSync(path).size;
      expect(size).toBeGreaterThan(4 * SAMPLE_BYTES);
      const read = await readSample(path);
      expect(read.complete).toBe(false);
      const result = await inferFeed(read);
      if (!result.ok) throw new Error(result.problem);
      const { inference } = result;
      expect(inference.format.value).toBe('xlsx');
      expect(sourceOf(inference)).toMatchObject({ sheet: 'Umsätze', dateFormat: 'dd.MM.yyyy' });
      expect(inference.mapping.bookingDate?.value).toBe('Buchungstag');
      expect(inference.mapping.amount).toMatchObject({ value: 'Betrag', certainty: 'sure' });
      expect(inference.mapping.purpose?.value).toBe('Verwendungszweck');
      expect(inference.sample).toMatchObject({ rows: SAMPLE_ROWS, rowsCapped: true, complete: false });
      // Bounded: the index, the small parts and the sheet's beginning, not the whole sheet.
      expect(inference.sample.bytes).toBeLessThan(size / 3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('JSON Lines: keys (nested ones dotted) as columns, mapped as a table', async () => {
    const inference = await inferred(
      [
        '{"id":"T1","bookingDate":"2026-03-02","amount":"-12.50","purpose":"Miete","counterparty":{"name":"Vermieter"}}',
        '{"id":"T2","bookingDate":"2026-03-03","amount":"2480.00","purpose":"Gehalt","counterparty":{"name":"ACME"}}',
        '{"id":"T3","bookingDate":"2026-03-14","amount":"-3.10","purpose":"Kantine","counterparty":{"name":"Kantine"}}',
        '',
      ].join('\n'),
    );
    expect(inference.format).toMatchObject({ value: 'jsonl', certainty: 'sure' });
    expect(inference.source.map(([key]) => key)).toEqual(['encoding']);
    expect(inference.mapping.bookingDate?.value).toBe('bookingDate');
    expect(inference.mapping.amount).toMatchObject({ value: 'amount', certainty: 'sure' });
    expect(inference.mapping.purpose?.value).toBe('purpose');
    expect(inference.identity.idColumns).toContain('id');
    expect(inference.notes.some((note) => note.startsWith('column "bookingDate"'))).toBe(true);
  });

  it('a sample the cap cut: the entry or line it ends in is no fault of the file, and the note says what was not seen', async () => {
    const cut = CAMT_TWO_ACCOUNTS.slice(0, CAMT_TWO_ACCOUNTS.indexOf('<Stmt><Id>S2') + 40);
    const camt = await inferFeed(sample(cut, false));
    if (!camt.ok) throw new Error(camt.problem);
    expect(camt.inference.format.value).toBe('camt');
    expect(camt.inference.sample.rows).toBe(2);
    expect(camt.inference.notes.some((note) => note.includes('do not read'))).toBe(false);
    expect(camt.inference.notes.some((note) => note.includes('were not seen'))).toBe(true);
    const jsonl = await inferFeed(sample('{"a":"1","b":"x"}\n{"a":"2","b":"y"}\n{"a":"3","b', false));
    if (!jsonl.ok) throw new Error(jsonl.problem);
    expect(jsonl.inference.format.value).toBe('jsonl');
    expect(jsonl.inference.sample.rows).toBe(2);
    expect(jsonl.inference.notes.some((note) => note.includes('do not read'))).toBe(false);
  });

  it('a CSV whose cells hold ":20:", "EXTF" or a JSON object stays CSV', async () => {
    const inference = await inferred(
      'Buchungstag;Betrag;Verwendungszweck\n02.02.2026;-12,50;":20: EXTF {""a"":1}"\n03.02.2026;2.480,00;Gehalt\n',
    );
    expect(inference.format.value).toBe('csv');
  });

  it('a workbook whose parts begin with a large one: the workbook part past the sample is found by the zip index', async () => {
    const parts = xlsxParts({
      sheets: [
        {
          name: 'Umsätze',
          rows: [
            rowOf(1, ['Buchungstag', 'Betrag', 'Verwendungszweck']),
            rowOf(2, ['02.03.2026', { n: '-12.5' }, 'Miete']),
            rowOf(3, ['03.03.2026', { n: '2480' }, 'Gehalt']),
          ].join(''),
        },
      ],
    });
    // Random bytes do not deflate: the image part alone is larger than the sample.
    const workbook = zipOf({ 'xl/media/image1.png': randomBytes(SAMPLE_BYTES + 4096), ...parts });
    const head = workbook.subarray(0, SAMPLE_BYTES);
    expect(head.includes('xl/workbook.xml')).toBe(false);
    const result = await inferFeed(sample(head, false, workbook));
    expect(result.ok, result.ok ? '' : result.problem).toBe(true);
    if (!result.ok) return;
    expect(result.inference.format.value).toBe('xlsx');
    expect(result.inference.mapping.bookingDate?.value).toBe('Buchungstag');
    expect(result.inference.mapping.amount?.value).toBe('Betrag');
  });

  it('a zip larger than the sample that holds no workbook is refused by the xlsx reader, with its reason', async () => {
    const archive = zipOf({ 'word/document.xml': randomBytes(SAMPLE_BYTES + 4096) });
    const result = await inferFeed(sample(archive.subarray(0, SAMPLE_BYTES), false, archive));
    expect(result.ok).toBe(false);
  });

  it('XML that is no camt and a zip that is no workbook are refused with their reason', async () => {
    expect(await inferFeed(sample('<?xml version="1.0"?><invoices/>'))).toMatchObject({ ok: false });
    expect(await inferFeed(sample(Buffer.from('PK\x03\x04 word/document.xml', 'latin1')))).toMatchObject({
      ok: false,
    });
  });
});
