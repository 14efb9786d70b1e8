import { describe, expect, it } from 'vitest';
import { camtRows } from '../../support/camt-rows.js';
import { fixtureWriter } from '../../support/source-files.js';

/**
 * Shapes the real camt files of other banks and parsers have (test/samples reads those in place),
 * written small here so that `npm test` holds each behaviour without them.
 */
const write = fixtureWriter('camt-shapes');
const ns = (message: string) => `urn:iso:std:iso:20022:tech:xsd:${message}`;

const doc = (message: string, root: string, body: string) =>
  write(
    [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<Document xmlns="${ns(message)}">`,
      `<${root}>`,
      body,
      `</${root}>`,
      '</Document>',
      '',
    ].join('\n'),
    'xml',
  );

describe('camt shapes of real banks, on small files of our own', () => {
  it('a camt.052 report: a booking date as DtTm is its local day, the account given by Othr/Id', async () => {
    const path = doc(
      'camt.052.001.02',
      'BkToCstmrAcctRpt',
      [
        '<GrpHdr><MsgId>R</MsgId></GrpHdr>',
        '<Rpt><Id>RPT-1</Id>',
        '<Acct><Id><Othr><Id>0004417082</Id></Othr></Id><Ccy>SEK</Ccy></Acct>',
        '<Ntry><Amt Ccy="SEK">200.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts>',
        '<BookgDt><DtTm>2026-02-03T23:30:00+01:00</DtTm></BookgDt><ValDt><Dt>2026-02-04</Dt></ValDt>',
        '<AcctSvcrRef>R-1</AcctSvcrRef></Ntry>',
        '</Rpt>',
      ].join('\n'),
    );
    const { rows, problems } = await camtRows(path);
    expect(problems).toEqual([]);
    expect(rows.map((r) => r.cells)).toEqual([
      expect.objectContaining({
        bookingDate: '2026-02-03',
        valueDate: '2026-02-04',
        amount: '-200.00',
        currency: 'SEK',
        account: '0004417082',
        accountCurrency: 'SEK',
        statementId: 'RPT-1',
        message: 'camt.052.001.02',
      }),
    ]);
  });

  it('several statements, each with its own id; balances (any of their types) are no rows; amount text kept exactly', async () => {
    const balance = (code: string) =>
      `<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">10.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-02-03</Dt></Dt></Bal>`;
    const stmt = (id: string, amount: string) =>
      [
        `<Stmt><Id>${id}</Id><Acct><Id><IBAN>DE80740699110000033627</IBAN></Id></Acct>`,
        ...['OPBD', 'PRCD', 'ITBD', 'CLBD', 'CLAV', 'FWAV', 'INFO'].map(balance),
        `<Ntry><Amt Ccy="EUR">${amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-02-03</Dt></BookgDt><AcctSvcrRef>${id}-1</AcctSvcrRef></Ntry>`,
        '</Stmt>',
      ].join('\n');
    const path = doc(
      'camt.053.001.02',
      'BkToCstmrStmt',
      ['<GrpHdr><MsgId>M</MsgId></GrpHdr>', stmt('S-1', '8.850'), stmt('S-2', '0.00001')].join('\n'),
    );
    const { rows } = await camtRows(path);
    expect(rows.map((r) => [r.cells.statementId, r.cells.amount, r.cells.reference])).toEqual([
      ['S-1', '8.850', 'S-1-1'],
      ['S-2', '0.00001', 'S-2-1'],
    ]);
  });

  it('camt.053.001.08: the status as Sts/Cd, the parties inside Pty; a structured reference alone is the purpose', async () => {
    const path = doc(
      'camt.053.001.08',
      'BkToCstmrStmt',
      [
        '<GrpHdr><MsgId>M</MsgId></GrpHdr>',
        '<Stmt><Id>S8</Id><Acct><Id><IBAN>DE80740699110000033627</IBAN></Id></Acct>',
        '<Ntry><Amt Ccy="EUR">12.50</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>',
        '<BookgDt><Dt>2026-02-03</Dt></BookgDt><AcctSvcrRef>V8-1</AcctSvcrRef>',
        '<NtryDtls><TxDtls><Refs><EndToEndId>E2E-8</EndToEndId></Refs>',
        '<RltdPties><Dbtr><Pty><Nm>Chorverein Lindenau e.V.</Nm></Pty></Dbtr><Cdtr><Pty><Nm>Notenhaus Weber</Nm></Pty></Cdtr>',
        '<CdtrAcct><Id><IBAN>DE51520999550002208811</IBAN></Id></CdtrAcct></RltdPties>',
        '<RmtInf><Strd><CdtrRefInf><Tp><CdOrPrtry><Cd>SCOR</Cd></CdOrPrtry></Tp><Ref>RF18539007547034</Ref></CdtrRefInf></Strd></RmtInf>',
        '</TxDtls></NtryDtls></Ntry>',
        '</Stmt>',
      ].join('\n'),
    );
    const { rows } = await camtRows(path);
    expect(rows.map((r) => r.cells)).toEqual([
      expect.objectContaining({
        status: 'BOOK',
        amount: '-12.50',
        endToEndId: 'E2E-8',
        counterpartyName: 'Notenhaus Weber',
        counterpartyIban: 'DE51520999550002208811',
        debtorName: 'Chorverein Lindenau e.V.',
        structuredReference: 'RF18539007547034',
        purpose: 'RF18539007547034',
      }),
    ]);
  });

  it('a bare statement: no group header, balances, status or value date', async () => {
    const path = doc(
      'camt.053.001.04',
      'BkToCstmrStmt',
      [
        '<Stmt><Id>BARE</Id><Acct><Id><IBAN>DE80740699110000033627</IBAN></Id></Acct>',
        '<Ntry><Amt Ccy="EUR">5.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><BookgDt><Dt>2026-02-03</Dt></BookgDt>',
        '<AddtlNtryInf>Sendungsnummer 00340434161234567890</AddtlNtryInf></Ntry>',
        '</Stmt>',
      ].join('\n'),
    );
    const { rows, problems, statements } = await camtRows(path);
    expect(problems).toEqual([]);
    expect(rows.map((r) => r.cells)).toEqual([
      expect.objectContaining({
        status: '',
        bookingDate: '2026-02-03',
        valueDate: '',
        amount: '5.00',
        reference: '',
        purpose: 'Sendungsnummer 00340434161234567890',
      }),
    ]);
    expect(rows[0]?.leftOut).toBeUndefined();
    expect(statements.map((s) => [s.opening, s.closing])).toEqual([[undefined, undefined]]);
  });
});
