import { type CamtEntry, camtFile } from '../../support/statement-files.js';

/** The shapes one booking takes in the tests of issue 25 point 1 (in process and in the fleet). */
export const IBAN = 'DE89370400440532013000';
export const TARGET = `bankAccount: {externalId: giro, accountName: Giro, bankName: Bank, iban: "${IBAN}"}`;

/** One booking (AcctSvcrRef R-1, 10.00) as a batch whose two details carry their amounts. */
export const split: CamtEntry = {
  amount: '10.00',
  date: '2026-03-02',
  ref: 'R-1',
  details: [
    { text: 'Part one', amount: '4.00', endToEnd: 'E-1' },
    { text: 'Part two', amount: '6.00', endToEnd: 'E-2' },
  ],
};
/** The same booking as a batch without amounts per detail: one record. */
export const unsplit: CamtEntry = { ...split, details: split.details.map(({ amount: _, ...d }) => d) };
/** The same booking as a plain entry. */
export const plain: CamtEntry = { ...split, details: [{ text: 'Parts one and two' }] };
/** The same booking (10.00) split by the bank into three parts in a later file: 4.00 + 3.00 + 3.00. */
export const threeParts: CamtEntry = {
  ...split,
  details: [
    { text: 'Part one', amount: '4.00', endToEnd: 'E-1' },
    { text: 'Part two', amount: '3.00', endToEnd: 'E-2' },
    { text: 'Part three', amount: '3.00', endToEnd: 'E-3' },
  ],
};
/** Three parts that add up to another total (11.00): another booking than the service's 10.00. */
export const threePartsOther: CamtEntry = {
  ...threeParts,
  amount: '11.00',
  details: threeParts.details.map((d, i) => (i === 2 ? { ...d, amount: '4.00' } : d)),
};
/** Another booking of the file, so that the file is more than the booking. */
export const other: CamtEntry = {
  amount: '1.50',
  date: '2026-03-02',
  ref: 'R-2',
  details: [{ text: 'Other' }],
};

export const statement = (id: string, ...entries: CamtEntry[]) =>
  camtFile({ id, account: { iban: IBAN }, entries });

/** A transaction as the service holds it for a part or entry (`externalId`), seeded by a test. */
export const heldTransaction = (externalId: string, amount: number) => ({
  externalId,
  bookingDate: '2026-03-02',
  valueDate: '2026-03-02',
  amount,
  currency: 'EUR' as const,
  purpose: externalId,
});
