/**
 * Column names banks and ERPs give a kind's fields, German and English, as patterns over the
 * normalised name (normalName). Earlier patterns rank higher: "Buchungstag" is a better booking
 * date than "Datum". A name match alone is a guess; the values decide how sure a mapping is.
 */

/** Lower case, umlauts and ß spelt out, everything but letters and digits dropped. */
export function normalName(name: string): string {
  return name
    .toLowerCase()
    .replace(/ä/g, 'ae')
    .replace(/ö/g, 'oe')
    .replace(/ü/g, 'ue')
    .replace(/ß/g, 'ss')
    .normalize('NFKD')
    .replace(/[^a-z0-9]/g, '');
}

export type NamePatterns = readonly RegExp[];

/** Transactions: the kind's fields (src/kinds/transactions/fields.ts) and the sign's helpers. */
export const TRANSACTION_NAMES: Readonly<Record<string, NamePatterns>> = {
  bookingDate: [
    /^buchungs(tag|datum)$/,
    /^(booking|posting|posted|transaction|trans)date$/,
    // An ERP table's column (`booked_on`).
    /^(booked|posted)(on)?$/,
    /^buchung(sdatum)?$/,
    /^(datum|date)$/,
  ],
  valueDate: [/^(valuta|wertstellung)(sdatum|datum|tag)?$/, /^valuedate$/, /^valdate$/],
  amount: [
    /^(betrag|umsatz)(eur|in eur|inclwaehrung)?$/,
    /^amount(eur|usd)?$/,
    /^(betrag|umsatz)/,
    /^(value|sum)$/,
  ],
  currency: [/^(waehrung|currency|ccy|wkz)$/, /^(waehrung|currency)/],
  purpose: [
    /^verwendungszweck$/,
    /^(purpose|description|memo|details|narrative)$/,
    /^(verwendungszweck|beschreibung|buchungsdetails)/,
  ],
  counterpartyName: [
    /^(beguenstigterzahlungspflichtiger|auftraggeberbeguenstigter|zahlungspflichtigerbeguenstigter|namezahlungsbeteiligter)$/,
    /^(beguenstigter|zahlungspflichtiger|auftraggeber|empfaenger|gegenseite|gegenpartei|payee|payer|counterparty|counterpartyname)$/,
    /^(beguenstigter|auftraggeber|empfaenger|zahlungsbeteiligter|payee|counterparty)/,
    /^name$/,
  ],
  counterpartyIban: [
    /^(iban|kontonummeriban|ibanzahlungsbeteiligter|counterpartyiban|payeeiban)$/,
    /iban/,
    /^kontonummer$/,
  ],
};

/** Invoices: src/kinds/invoices/fields.ts. */
export const INVOICE_NAMES: Readonly<Record<string, NamePatterns>> = {
  invoiceNumber: [
    /^(rechnungs(nummer|nr)|invoice(number|no|nr|id)?)$/,
    /^(belegnummer|belegnr|beleg|documentnumber)$/,
    /^(nummer|nr|number|no)$/,
  ],
  invoiceDate: [/^(rechnungsdatum|invoicedate|belegdatum|documentdate)$/, /^(datum|date)$/],
  dueDate: [/^(faellig|faelligkeit|faelligam|faelligkeitsdatum|duedate|due|zahlungsziel)$/, /faellig|due/],
  // "paid"/"bezahlt" may as well be a flag or a status: a date only when its values are dates (mapping.ts).
  paidDate: [/^(bezahltam|zahlungsdatum|zahldatum|paiddate|paymentdate|paidon)$/, /^(paid|bezahlt)$/],
  totalGrossAmount: [
    /^(brutto|bruttobetrag|betragbrutto|gesamtbrutto|rechnungsbetrag|gross|grossamount|totalgross|totalgrossamount|total)$/,
    /brutto|gross/,
    /^(betrag|amount)$/,
  ],
  openAmount: [
    /^(offen|offenerbetrag|offenerposten|restbetrag|open|openamount|outstanding|balancedue|amountdue)$/,
  ],
  contactName: [
    /^(kunde|kundenname|lieferant|lieferantenname|debitor|kreditor|customer|supplier|vendor|contact|contactname)$/,
    /^(name|firma|company)$/,
    /kunde|lieferant|customer|supplier|vendor/,
  ],
  invoiceStatus: [/^(status|zahlstatus|paymentstatus|invoicestatus)$/],
  note: [/^(notiz|bemerkung|note|notes|beschreibung|description|betreff|subject)$/],
};

/** A column that only says which sign the amount beside it has. */
export const SIGN_NAMES: NamePatterns = [
  /^(sh|sollhaben|sollhabenkennzeichen|sollhabenkz|shkz|dc|cd|debitcredit|creditdebit|drcr|crdr|cdtdbtind|vorzeichen|sign)$/,
];

/** An invoice's net amount (no field of its own): beside a plain "Betrag", it makes the gross one a guess. */
export const NET_NAMES = /^(netto|nettobetrag|betragnetto|net|netamount|totalnet)$/;

/** Separate debit and credit columns: amount = credit - debit. */
export const DEBIT_NAMES: NamePatterns = [
  /^(soll|debit|lastschrift|ausgang|ausgaben|belastung|withdrawal|withdrawals|paidout|moneyout)(eur)?$/,
];
export const CREDIT_NAMES: NamePatterns = [
  /^(haben|credit|gutschrift|eingang|einnahmen|deposit|deposits|paidin|moneyin)(eur)?$/,
];

/** Column names of an identifier (the externalId): with a unique value in every row, a good ID. */
export const ID_NAMES: NamePatterns = [
  /^(id|buchungsid|transaktionsid|transactionid|umsatzid|referenz|reference|ref|belegnummer|belegnr|rechnungsnummer|rechnungsnr|invoicenumber|invoiceno|externalid|uuid)$/,
  /(^id$|id$|nummer$|nr$|number$|referenz$|reference$)/,
];

/** A column that says which document a row is (invoice or credit note): invoice-type.ts. */
export const INVOICE_TYPE_NAMES: NamePatterns = [
  /^(invoicetype|documenttype|doctype|rechnungsart|rechnungstyp|belegart|belegtyp|dokumentart|dokumenttyp)$/,
  /^(type|typ)$/,
];

/** Columns that name the counterparty's side of an invoice: a customer's are sales, a supplier's purchases. */
export const SALES_NAMES = /kunde|debitor|customer|client/;
export const PURCHASE_NAMES = /lieferant|kreditor|supplier|vendor/;

/** The rank of the first pattern the name matches (lower is better), or undefined. */
export function rankOf(name: string, patterns: NamePatterns): number | undefined {
  const normal = normalName(name);
  if (normal === '') return undefined;
  const at = patterns.findIndex((p) => p.test(normal));
  return at === -1 ? undefined : at;
}
