import { readFileSync, writeFileSync } from 'node:fs';

/** A German bank export as banks write it: Windows-1252, `;`, decimal comma, an S/H column, CRLF. */
export const GERMAN_EXPORT = Buffer.from(
  [
    'Buchungs-ID;Buchungstag;Valuta;Auftraggeber/Empfänger;Verwendungszweck;Betrag;S/H',
    'B-1;02.01.2026;02.01.2026;Müller GmbH;Rechnung 1 "A";1.190,00;H',
    'B-2;05.01.2026;06.01.2026;Stadtwerke;Strom # Jan;84,50;S',
    'B-3;28.01.2026;28.01.2026;Bank;Zins;0,01;H',
    '',
  ].join('\r\n'),
  'latin1',
);

/** The feed `erp-bridge init` wrote, filled in as a person would: the account and the target bank account. */
export function fillIn(feed: string): void {
  const text = readFileSync(feed, 'utf8')
    .replace(/^accountId: .*$/m, 'accountId: 1001')
    .replace(/^ {2}externalId: '<fill in.*$/m, '  externalId: giro')
    .replace(/^ {2}accountName: '<fill in.*$/m, '  accountName: Giro')
    .replace(/^ {2}bankName: '<fill in.*$/m, '  bankName: Musterbank');
  writeFileSync(feed, text);
}

/** The records `erp-bridge check` shows, without the file name before each (local or remote). */
export const shownRecords = (stdout: string): string[] =>
  stdout
    .split('\n')
    .filter((line) => /\.csv:\d+ \{/.test(line))
    .map((line) => line.slice(line.indexOf('.csv:')));
