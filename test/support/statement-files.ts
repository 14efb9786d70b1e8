/** A camt.053 transaction detail: its remittance text, its own amount (absent: none), its end-to-end id. */
export interface CamtDetail {
  text: string;
  amount?: string;
  endToEnd?: string;
}

/** One camt entry as the tests write it. */
export interface CamtEntry {
  amount: string;
  date: string;
  credit?: boolean;
  /** AcctSvcrRef; absent: the entry has none. */
  ref?: string;
  details: CamtDetail[];
}

/** `<Acct>` of a statement: an IBAN, an `Othr/Id`, `<IBAN></IBAN>` (empty), or none at all. */
export type CamtAccount = { iban: string } | { other: string } | 'empty' | 'none';

function camtAccount(account: CamtAccount): string {
  if (account === 'none') return '';
  const id =
    account === 'empty'
      ? '<IBAN></IBAN>'
      : 'iban' in account
        ? `<IBAN>${account.iban}</IBAN>`
        : `<Othr><Id>${account.other}</Id></Othr>`;
  return `<Acct><Id>${id}</Id><Ccy>EUR</Ccy></Acct>`;
}

function camtDetail(detail: CamtDetail): string {
  const amount = detail.amount === undefined ? '' : `<Amt Ccy="EUR">${detail.amount}</Amt>`;
  const refs =
    detail.endToEnd === undefined ? '' : `<Refs><EndToEndId>${detail.endToEnd}</EndToEndId></Refs>`;
  return `<TxDtls>${refs}${amount}<RmtInf><Ustrd>${detail.text}</Ustrd></RmtInf></TxDtls>`;
}

function camtEntry(entry: CamtEntry): string {
  const batch = entry.details.length > 1 ? `<Btch><NbOfTxs>${entry.details.length}</NbOfTxs></Btch>` : '';
  return [
    '<Ntry>',
    `<Amt Ccy="EUR">${entry.amount}</Amt>`,
    `<CdtDbtInd>${entry.credit === false ? 'DBIT' : 'CRDT'}</CdtDbtInd>`,
    '<Sts>BOOK</Sts>',
    `<BookgDt><Dt>${entry.date}</Dt></BookgDt>`,
    `<ValDt><Dt>${entry.date}</Dt></ValDt>`,
    entry.ref === undefined ? '' : `<AcctSvcrRef>${entry.ref}</AcctSvcrRef>`,
    `<NtryDtls>${batch}${entry.details.map(camtDetail).join('\n')}</NtryDtls>`,
    '</Ntry>',
  ].join('\n');
}

/** One camt statement (`Stmt`): its Id, account, entries and, optionally, its closing booked balance. */
export interface CamtStatementSpec {
  id: string;
  account: CamtAccount;
  entries: CamtEntry[];
  closing?: { amount: string; date: string };
}

function camtStatement(statement: CamtStatementSpec): string {
  const balance = statement.closing
    ? `<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">${statement.closing.amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>${statement.closing.date}</Dt></Dt></Bal>`
    : '';
  return [
    '<Stmt>',
    `<Id>${statement.id}</Id>`,
    '<CreDtTm>2026-03-04T18:00:00+01:00</CreDtTm>',
    camtAccount(statement.account),
    balance,
    ...statement.entries.map(camtEntry),
    '</Stmt>',
  ].join('\n');
}

/** A camt.053 message holding `statements`, one element a line. */
export function camtFile(...statements: CamtStatementSpec[]): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">',
    '<BkToCstmrStmt>',
    '<GrpHdr><MsgId>BOOKING-ONCE</MsgId><CreDtTm>2026-03-04T18:00:00+01:00</CreDtTm></GrpHdr>',
    ...statements.map(camtStatement),
    '</BkToCstmrStmt>',
    '</Document>',
    '',
  ].join('\n');
}

/** The line of the `n`-th (1-based) occurrence of `needle` in `text`. */
export function lineOf(text: string, needle: string, n = 1): number {
  let at = -1;
  for (let i = 0; i < n; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`"${needle}" occurs fewer than ${n} times`);
  }
  return text.slice(0, at).split('\n').length;
}
