import { describe, expect, it } from 'vitest';
import { KINDS } from '../../../src/kinds/registry.js';
import { DKB, inferred, lines, mappedAs, SPARKASSE, sureFormat } from './exports.js';

describe('init maps the kind fields from column names and values', () => {
  it('Sparkasse: every field named and proved by its values; no ID column, so the derived identity', () => {
    const got = inferred(SPARKASSE);
    expect(got.kind).toMatchObject({ value: 'transactions', certainty: 'guess' });
    expect(mappedAs(got)).toEqual({
      amount: ['Betrag', 'sure'],
      bookingDate: ['Buchungstag', 'sure'],
      valueDate: ['Valutadatum', 'sure'],
      currency: ['Waehrung', 'sure'],
      purpose: [{ columns: ['Buchungstext', 'Verwendungszweck'], separator: ' / ' }, 'guess'],
      counterpartyName: ['Beguenstigter/Zahlungspflichtiger', 'sure'],
      counterpartyIban: ['Kontonummer/IBAN', 'sure'],
    });
    expect(got.missing).toEqual([]);
    expect(got.identity.idColumns).toEqual([]);
    expect(got.identity.externalId).toMatchObject({ value: null, certainty: 'sure' });
    // Every identity field of the kind is mapped, so the derived identity is built from all of them.
    expect(got.identity.derivedFrom).toEqual(KINDS.transactions.identityFields);
    expect(got.identity.externalId.reason).toMatch(/derived identity.*built from amount, bookingDate/);
  });

  it('DKB: "Betrag (EUR)", "Wertstellung", "Auftraggeber / Begünstigter"; the empty last column is left alone', () => {
    const got = inferred(DKB);
    expect(got.mapping.amount).toMatchObject({ value: 'Betrag (EUR)', certainty: 'sure' });
    expect(got.mapping.valueDate).toMatchObject({ value: 'Wertstellung', certainty: 'sure' });
    expect(got.mapping.counterpartyName).toMatchObject({
      value: 'Auftraggeber / Begünstigter',
      certainty: 'sure',
    });
    expect(got.mapping.counterpartyIban).toMatchObject({ value: 'Kontonummer', certainty: 'sure' });
    // No currency column: the code in "Betrag (EUR)" as a constant.
    expect(got.mapping.currency).toMatchObject({ value: { const: 'EUR' }, certainty: 'guess' });
    // The booking text joined before the purpose, as a guess naming how to keep them apart.
    expect(got.mapping.purpose).toMatchObject({
      value: { columns: ['Buchungstext', 'Verwendungszweck'], separator: ' / ' },
      certainty: 'guess',
    });
    expect(got.mapping.purpose?.reason).toContain('map purpose: "Verwendungszweck" to keep it apart');
  });

  it('a purpose without a booking text column beside it is mapped alone', () => {
    const got = inferred(
      lines('Buchungstag;Betrag;Verwendungszweck', '02.01.2026;-1,00;Miete', '03.01.2026;2,00;Lohn'),
    );
    expect(got.mapping.purpose).toMatchObject({ value: 'Verwendungszweck', certainty: 'sure' });
  });

  it('Sparkasse marks bookings not booked yet: leaving them out is suggested, as a guess', () => {
    const pending = SPARKASSE.replace(
      '"-22,59";"EUR";"Umsatz gebucht"',
      '"-22,59";"EUR";"Umsatz vorgemerkt"',
    );
    const got = inferred(pending);
    expect(got.exclude).toMatchObject({
      value: [{ column: 'Info', equals: 'Umsatz vorgemerkt' }],
      certainty: 'guess',
    });
    expect(inferred(SPARKASSE).exclude).toBeUndefined();
  });

  it('English column names, an ID column named like one (a guess: a sample proves no column unique)', () => {
    const got = inferred(
      lines(
        'Reference,Date,Payee,Description,Amount,Currency',
        'TX-1,2026-01-02,Coffee Shop,Latte,-4.50,USD',
        'TX-2,2026-01-15,ACME Inc,Salary,2450.00,USD',
        'TX-3,2026-01-20,Landlord,Rent,-1200.00,USD',
      ),
    );
    expect(got.mapping.bookingDate).toMatchObject({ value: 'Date', certainty: 'sure' });
    expect(got.mapping.amount).toMatchObject({ value: 'Amount', certainty: 'sure' });
    expect(got.mapping.counterpartyName).toMatchObject({ value: 'Payee', certainty: 'sure' });
    expect(got.mapping.purpose).toMatchObject({ value: 'Description', certainty: 'sure' });
    expect(got.mapping.currency).toMatchObject({ value: 'Currency', certainty: 'sure' });
    expect(got.identity.idColumns).toContain('Reference');
    expect(got.identity.externalId).toMatchObject({ value: 'Reference', certainty: 'guess' });
  });

  it('separate debit and credit columns: amount = credit - debit, in the feed syntax', () => {
    const got = inferred(
      lines(
        'Buchungsdatum;Text;Soll;Haben',
        '01.02.2026;Miete;850,00;',
        '02.02.2026;Lohn;;2.450,00',
        '03.02.2026;Kaffee;4,50;',
      ),
    );
    expect(got.mapping.amount).toMatchObject({
      value: { debit: 'Soll', credit: 'Haben' },
      certainty: 'sure',
    });
    expect(got.decimalSeparator).toMatchObject({ value: ',', certainty: 'sure' });
  });

  it('English debit/credit columns', () => {
    const got = inferred(
      lines('Date,Details,Debit,Credit', '2026-02-01,Rent,850.00,', '2026-02-02,Salary,,2450.00'),
    );
    expect(got.mapping.amount).toMatchObject({
      value: { debit: 'Debit', credit: 'Credit' },
      certainty: 'sure',
    });
    expect(got.mapping.purpose).toMatchObject({ value: 'Details', certainty: 'sure' });
  });

  it('an S/H sign column: the amount carries the sign column, with the default markers', () => {
    const got = inferred(
      lines(
        'Buchungstag;Umsatz;S/H;Verwendungszweck',
        '01.02.2026;850,00;S;Miete',
        '02.02.2026;2.450,00;H;Lohn',
      ),
    );
    expect(got.mapping.amount).toMatchObject({
      value: {
        column: 'Umsatz',
        sign: { column: 'S/H', negative: ['S', 'D', '-'], positive: ['H', 'C', '+'] },
      },
      certainty: 'sure',
    });
  });

  it('a sign column writing Soll/Haben in words gets its own marker lists', () => {
    const got = inferred(
      lines('Datum;Betrag;Soll/Haben', '01.02.2026;850,00;Soll', '02.02.2026;2.450,00;Haben'),
    );
    expect(got.mapping.amount).toMatchObject({
      value: { column: 'Betrag', sign: { column: 'Soll/Haben', negative: ['SOLL'], positive: ['HABEN'] } },
      certainty: 'sure',
    });
  });

  it('never sure of a sign it cannot see: all amounts positive and no sign column is a guess saying so', () => {
    const got = inferred(lines('Datum;Betrag;Text', '01.02.2026;850,00;Miete', '02.02.2026;2.450,00;Lohn'));
    expect(got.mapping.amount).toMatchObject({ value: 'Betrag', certainty: 'guess' });
    expect(got.mapping.amount?.reason).toMatch(/every sampled amount is positive/);
  });

  it('a minus in the amounts and a sign column beside them: asked', () => {
    const got = inferred(lines('Datum;Betrag;S/H', '01.02.2026;-850,00;S', '02.02.2026;2.450,00;H'));
    expect(got.mapping.amount?.certainty).toBe('ask');
    expect(got.mapping.amount?.value).toBeUndefined();
  });

  it('a column named like an amount whose values are no amounts is not mapped, and the amount is asked', () => {
    const got = inferred(
      lines('Datum;Betrag;Wert', '01.02.2026;zwei Euro;-2,00', '02.02.2026;drei Euro;3,00'),
    );
    expect(got.mapping.amount).toMatchObject({ value: undefined, certainty: 'ask' });
    // The person picks among the columns that hold amounts.
    expect(got.mapping.amount?.candidates).toEqual(['Wert']);
    expect(got.missing).toContain('amount');
  });

  it('an IBAN column holding an old account number too: mapped by its name as a guess, saying so', () => {
    const got = inferred(
      lines(
        'Buchungstag;Betrag;Kontonummer/IBAN',
        '01.02.2026;-2,00;DE89370400440532013000',
        '02.02.2026;3,00;1234123412',
      ),
    );
    expect(got.mapping.counterpartyIban).toMatchObject({ value: 'Kontonummer/IBAN', certainty: 'guess' });
    expect(got.mapping.counterpartyIban?.reason).toMatch(/"1234123412" is no IBAN/);
  });

  it('a repeated column name: asked, the candidates by position (a name would read the first of them)', () => {
    const got = inferred(lines('Datum;Betrag;Betrag', '01.02.2026;-2,00;x', '02.02.2026;3,00;y'));
    expect(got.mapping.amount).toMatchObject({ value: undefined, certainty: 'ask' });
    expect(got.mapping.amount?.candidates).toEqual([{ column: 2 }, { column: 3 }]);
  });

  it('two columns named alike for one field: asked', () => {
    const got = inferred(
      lines('Datum;Date;Betrag', '01.02.2026;01.02.2026;-2,00', '02.02.2026;02.02.2026;3,00'),
    );
    expect(got.mapping.bookingDate).toMatchObject({ value: undefined, certainty: 'ask' });
    expect(got.mapping.bookingDate?.candidates).toEqual(['Datum', 'Date']);
  });

  it("an invoice status column: the service's statuses read as they are, known words mapped, other words asked", () => {
    const withStatus = (...statuses: string[]) =>
      inferred(
        lines(
          'Rechnungsnummer;Rechnungsdatum;Fälligkeit;Kunde;Brutto;Status',
          ...statuses.map((status, i) => `RE-${i};02.01.2026;16.01.2026;Kunde ${i};119,00;${status}`),
        ),
      ).mapping.invoiceStatus;
    expect(withStatus('OPEN', 'PAID')).toMatchObject({ value: 'Status', certainty: 'sure' });
    expect(withStatus('Teilbezahlt', 'storniert', 'OPEN')).toMatchObject({
      value: {
        column: 'Status',
        map: { Teilbezahlt: 'PARTIALLY_PAID', storniert: 'CANCELED', OPEN: 'OPEN' },
      },
      certainty: 'guess',
    });
    const asked = withStatus('offen', 'gemahnt');
    expect(asked).toMatchObject({ value: undefined, certainty: 'ask' });
    expect(asked?.reason).toContain('"gemahnt"');
  });

  it('an invoices list: the kind guessed from invoice number and due date, the type from the contact column', () => {
    const got = inferred(
      lines(
        'Rechnungsnummer;Rechnungsdatum;Fälligkeit;Kunde;Netto;Brutto;Status',
        'RE-2026-001;02.01.2026;16.01.2026;Müller GmbH;100,00;119,00;offen',
        'RE-2026-002;05.01.2026;19.01.2026;Schmidt AG;1.000,00;1.190,00;bezahlt',
        'RE-2026-003;13.01.2026;27.01.2026;Meier KG;50,00;59,50;offen',
      ),
    );
    expect(got.kind).toMatchObject({ value: 'invoices', certainty: 'guess' });
    expect(mappedAs(got)).toEqual({
      invoiceNumber: ['Rechnungsnummer', 'sure'],
      invoiceDate: ['Rechnungsdatum', 'sure'],
      dueDate: ['Fälligkeit', 'sure'],
      totalGrossAmount: ['Brutto', 'sure'],
      contactName: ['Kunde', 'sure'],
      invoiceStatus: [{ column: 'Status', map: { offen: 'OPEN', bezahlt: 'PAID' } }, 'guess'],
      invoiceType: [{ const: 'SALES_INVOICE' }, 'guess'],
    });
    expect(got.identity.externalId).toMatchObject({ value: 'Rechnungsnummer', certainty: 'guess' });
    expect(got.identity.derivedFrom).toEqual(KINDS.invoices.identityFields);
  });

  describe('the invoice type from a column naming the document', () => {
    const typed = (contact: string, type: string, ...values: string[]) =>
      inferred(
        lines(
          `Rechnungsnummer;Rechnungsdatum;Fälligkeit;${contact};Brutto;${type}`,
          ...values.map((value, i) => `RE-${i};02.01.2026;16.01.2026;Firma ${i};119,00;${value}`),
        ),
      ).mapping.invoiceType;

    it("known words on the customer's side: a value map to sales types, a guess", () => {
      const got = typed('Kunde', 'Belegart', 'Rechnung', 'Gutschrift', 'Rechnung');
      expect(got).toMatchObject({
        value: { column: 'Belegart', map: { Rechnung: 'SALES_INVOICE', Gutschrift: 'SALES_CREDIT_NOTE' } },
        certainty: 'guess',
      });
      expect(got?.reason).toContain('"Kunde" names customers');
    });

    // A guessed value map of the type column: the contact column, the type column, its words mapped.
    const MAPPED: [string, string, string, Record<string, string>][] = [
      [
        "known words on the supplier's side: purchase types",
        'Lieferant',
        'Document Type',
        { invoice: 'PURCHASE_INVOICE', credit_note: 'PURCHASE_CREDIT_NOTE' },
      ],
      [
        'words that say their side (Eingangsrechnung) need no contact column to tell it',
        'Firma',
        'Belegtyp',
        { Eingangsrechnung: 'PURCHASE_INVOICE', Eingangsgutschrift: 'PURCHASE_CREDIT_NOTE' },
      ],
    ];
    for (const [title, contact, type, words] of MAPPED)
      it(title, () => {
        expect(typed(contact, type, ...Object.keys(words))).toMatchObject({
          value: { column: type, map: words },
          certainty: 'guess',
        });
      });

    it('no column says whose: sales or purchase asked, with both maps', () => {
      const got = typed('Firma', 'Typ', 'RE', 'GS');
      expect(got).toMatchObject({ value: undefined, certainty: 'ask' });
      expect(got?.reason).toMatch(/^sales or purchase\? column "Typ"/);
      expect(got?.candidates).toEqual([
        { column: 'Typ', map: { RE: 'SALES_INVOICE', GS: 'SALES_CREDIT_NOTE' } },
        { column: 'Typ', map: { RE: 'PURCHASE_INVOICE', GS: 'PURCHASE_CREDIT_NOTE' } },
      ]);
    });

    it('a value no word is known for: asked, naming it', () => {
      const got = typed('Kunde', 'Type', 'invoice', 'Mahnung');
      expect(got).toMatchObject({ value: undefined, certainty: 'ask' });
      expect(got?.reason).toContain('"Mahnung"');
      expect(got?.reason).not.toContain('"invoice"');
    });

    it("the service's own types are read as they are, sure, whatever the contact column", () => {
      expect(typed('Firma', 'Invoice Type', 'SALES_INVOICE', 'PURCHASE_CREDIT_NOTE')).toMatchObject({
        value: 'Invoice Type',
        certainty: 'sure',
      });
    });

    it("no type column: today's constant from the contact column's name", () => {
      // Guards the old behaviour beside the new one (it held before this change too).
      expect(typed('Lieferant', 'Notiz', 'Wartung', 'Material')).toMatchObject({
        value: { const: 'PURCHASE_INVOICE' },
        certainty: 'guess',
      });
    });
  });

  it('the paid date: "paid" or "bezahlt" only when its values are dates, never a flag column', () => {
    const paid = (name: string, ...values: string[]) =>
      inferred(
        lines(
          `Rechnungsnummer;Rechnungsdatum;Fälligkeit;Kunde;Brutto;${name}`,
          ...values.map((value, i) => `RE-${i};02.01.2026;16.01.2026;Firma ${i};119,00;${value}`),
        ),
      ).mapping.paidDate;
    expect(paid('paid', '20.01.2026', '')).toMatchObject({ value: 'paid', certainty: 'sure' });
    expect(paid('Bezahlt', '20.01.2026', '21.01.2026')).toMatchObject({
      value: 'Bezahlt',
      certainty: 'sure',
    });
    expect(paid('Bezahlt', 'ja', 'nein')).toBeUndefined();
    // An empty "bezahlt" column cannot show dates: no guess by its name.
    expect(paid('bezahlt', '', '')).toBeUndefined();
    expect(paid('Bezahlt am', '', '')).toMatchObject({ value: 'Bezahlt am', certainty: 'guess' });
  });

  it('a kind without a vocabulary (plans): nothing mapped by name, every required field asked', () => {
    const got = inferred(SPARKASSE, 'plans');
    expect(got.kind).toMatchObject({ value: 'plans', certainty: 'sure' });
    expect(got.missing).toEqual(['name', 'amount', 'period', 'date']);
    expect(Object.values(got.mapping).every((m) => m.certainty === 'ask')).toBe(true);
    expect(got.mapping.date?.candidates).toEqual(['Buchungstag', 'Valutadatum']);
    // Nothing is filled, so the derived identity is built from nothing yet.
    expect(got.identity.derivedFrom).toEqual([]);
    expect(got.identity.externalId.reason).toMatch(/built from the identity fields once mapped/);
  });

  it('a kind given is sure, and maps that kind', () => {
    const got = inferred(SPARKASSE, 'invoices');
    expect(got.kind).toMatchObject({ value: 'invoices', certainty: 'sure' });
    expect(got.mapping.invoiceType?.certainty).toBe('ask');
    expect(got.missing).toContain('invoiceNumber');
  });
});

describe('hard cases of the amount and its sign', () => {
  it('the Sparkasse export again with "," and "." decimals: the same mapping, the separators swapped', () => {
    const got = inferred(
      lines(
        'Buchungstag,Valutadatum,Verwendungszweck,Beguenstigter/Zahlungspflichtiger,Betrag,Waehrung',
        '03.04.18,04.04.18,"KD-Nr. 1234, RG 99",Telekom GmbH,-22.59,EUR',
        '05.04.18,05.04.18,Lohn April,Firma AG,"2,450.00",EUR',
        '06.04.18,06.04.18,Lohn April,Firma AG,-850.00,EUR',
      ),
    );
    expect(sureFormat(got)).toMatchObject({
      delimiter: ',',
      decimalSeparator: '.',
      thousands: ',',
      dateFormat: 'dd.MM.yy',
    });
    expect(mappedAs(got)).toMatchObject({ amount: ['Betrag', 'sure'], bookingDate: ['Buchungstag', 'sure'] });
  });

  it('a column of S/H markers not named like a sign column: taken as the sign, as a guess', () => {
    const got = inferred(lines('Datum;Betrag;Kz', '01.02.2026;850,00;S', '02.02.2026;2.450,00;H'));
    expect(got.mapping.amount).toMatchObject({
      value: { column: 'Betrag', sign: { column: 'Kz' } },
      certainty: 'guess',
    });
    expect(got.mapping.amount?.reason).toMatch(/found by its values only/);
  });

  it('debit/credit columns with negative debits: asked (a debit would count twice)', () => {
    const got = inferred(lines('Datum;Soll;Haben', '01.02.2026;-850,00;', '02.02.2026;;2.450,00'));
    expect(got.mapping.amount).toMatchObject({ value: undefined, certainty: 'ask' });
    expect(got.mapping.amount?.candidates).toEqual([{ debit: 'Soll', credit: 'Haben' }]);
  });

  it('withdrawals and deposits', () => {
    const got = inferred(
      lines('Posted Date,Withdrawals,Deposits', '2026-02-01,850.00,', '2026-02-02,,2450.00'),
    );
    expect(got.mapping.amount).toMatchObject({
      value: { debit: 'Withdrawals', credit: 'Deposits' },
      certainty: 'sure',
    });
    expect(got.mapping.bookingDate).toMatchObject({ value: 'Posted Date', certainty: 'sure' });
  });

  it('an amount column and debit/credit columns both: asked', () => {
    const got = inferred(
      lines('Datum;Betrag;Soll;Haben', '01.02.2026;-850,00;850,00;', '02.02.2026;2.450,00;;2.450,00'),
    );
    expect(got.mapping.amount?.certainty).toBe('ask');
  });

  it('an invoice "Betrag" beside a "Netto" column: gross or net is a guess', () => {
    const got = inferred(
      lines(
        'Rechnungsnr;Fällig am;Kunde;Netto;Betrag',
        'R1;16.01.2026;A;100,00;119,00',
        'R2;19.01.2026;B;50,00;59,50',
      ),
    );
    expect(got.kind.value).toBe('invoices');
    expect(got.mapping.totalGrossAmount).toMatchObject({ value: 'Betrag', certainty: 'guess' });
    expect(got.mapping.totalGrossAmount?.reason).toMatch(/gross or net\? a net column "Netto"/);
  });
});
