import { type CsvInference, inferCsv } from '../../../src/init/infer-csv.js';
import type { RecordKind } from '../../../src/kinds/registry.js';

/**
 * Exports written in the tests, in the shapes banks and ERPs deliver (never copied from other
 * projects' sample files): lines joined with CRLF as most of them write.
 */
export const lines = (...rows: string[]): string => `${rows.join('\r\n')}\r\n`;

/** The inference of an export given as text (UTF-8 unless bytes are given), the whole file. */
export function inferred(text: string | Buffer, kind?: RecordKind): CsvInference {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  const result = inferCsv({ bytes, complete: true }, kind ? { kind } : {});
  if (!result.ok) throw new Error(result.problem);
  return result.inference;
}

/** A Sparkasse "CSV-CAMT" export: `;`, every cell quoted, decimal comma, dd.MM.yy, no ID column. */
export const SPARKASSE = lines(
  '"Auftragskonto";"Buchungstag";"Valutadatum";"Buchungstext";"Verwendungszweck";"Glaeubiger ID";"Mandatsreferenz";"Beguenstigter/Zahlungspflichtiger";"Kontonummer/IBAN";"BIC (SWIFT-Code)";"Betrag";"Waehrung";"Info"',
  '"12345678";"03.04.18";"04.04.18";"FOLGELASTSCHRIFT";"KD-Nr. 1234/ RG-Nr. 99";"DE98ZZZ09999999999";"M-1";"Telekom GmbH";"DE12500105170648489890";"INGDDEFFXXX";"-22,59";"EUR";"Umsatz gebucht"',
  '"12345678";"03.04.18";"03.04.18";"KARTENZAHLUNG";"2018-03-30T17:47:21 Karte1";;;"EDEKA Dübel";"DE12500105170648489890";"INGDDEFFXXX";"-62,59";"EUR";"Umsatz gebucht"',
  '"12345678";"05.04.18";"05.04.18";"GUTSCHRIFT";"Lohn April";;;"Firma AG";"DE89370400440532013000";"COBADEFFXXX";"2.450,00";"EUR";"Umsatz gebucht"',
  '"12345678";"05.04.18";"05.04.18";"KARTENZAHLUNG";"2018-04-04T10:12:00 Karte1";;;"EDEKA Dübel";"DE12500105170648489890";"INGDDEFFXXX";"-62,59";"EUR";"Umsatz gebucht"',
  '"12345678";"06.04.18";"06.04.18";"GUTSCHRIFT";"Lohn April";;;"Vermieter";"DE89370400440532013000";"COBADEFFXXX";"-850,00";"EUR";"Umsatz gebucht"',
);

/** DKB's giro export: a preamble of account, period and balance lines with blank lines, a trailing `;`. */
export const DKB = lines(
  '"Kontonummer:";"DE99999999999999999999 / Girokonto";',
  '',
  '"Von:";"01.01.2018";',
  '"Bis:";"31.01.2018";',
  '"Kontostand vom 31.01.2018:";"5.000,01 EUR";',
  '',
  '"Buchungstag";"Wertstellung";"Buchungstext";"Auftraggeber / Begünstigter";"Verwendungszweck";"Kontonummer";"BLZ";"Betrag (EUR)";"Gläubiger-ID";"Mandatsreferenz";"Kundenreferenz";',
  '"16.01.2018";"16.01.2018";"Lastschrift";"REWE Filialen";"REWE SAGT DANKE";"DE00123456781234567890";"AAAAAAAA";"-15,37";"";"";"";',
  '"17.01.2018";"18.01.2018";"Gutschrift";"Müller GmbH";"Rechnung 12";"DE00123456781234567891";"BBBBBBBB";"1.200,00";"";"";"";',
  '"25.01.2018";"25.01.2018";"Lastschrift";"Stadtwerke";"Abschlag";"DE00123456781234567892";"CCCCCCCC";"-80,00";"";"";"";',
);

/** The mapping as field -> [value, certainty], for one assertion over all of it. */
export const mappedAs = (got: CsvInference): Record<string, [unknown, string]> =>
  Object.fromEntries(Object.entries(got.mapping).map(([f, m]) => [f, [m.value, m.certainty]]));

/** The format settings inferred `sure`, by key: what a test expects of a clear export in one assertion. */
export function sureFormat(got: CsvInference): Record<string, unknown> {
  const keys = [
    'encoding',
    'delimiter',
    'quote',
    'skipLines',
    'decimalSeparator',
    'thousands',
    'dateFormat',
  ] as const;
  return Object.fromEntries(keys.flatMap((k) => (got[k].certainty === 'sure' ? [[k, got[k].value]] : [])));
}
