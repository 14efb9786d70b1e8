import { compiled } from '../contract/index.js';
import { KINDS, type RecordKind } from '../kinds/registry.js';
import type { RecordOf } from '../sources/record-of.js';
import type { Booking } from './booking.js';
import type { CellFormats, Converted } from './convert.js';
import type { SourceFeed } from './feed-view.js';
import { cellOf, checkColumn, type FieldReader, fieldReader, SourceLayoutError } from './field-plan.js';
import { routeCellsOf } from './formats/registry.js';
import { DerivedIds, identityContent } from './identity.js';
import type {
  ExcludedRecord,
  MapOutcome,
  MappedRecord,
  RecordProblem,
  RejectedRecord,
  StatementAccount,
} from './record.js';
import type { Columns, SourceRow } from './row.js';
import { accountKey } from './statement-account.js';
import { compileDateFormat } from './values/date.js';
import { fractionDigitsIn, fractionDigitsOf } from './values/fraction-digits.js';

export type RecordMapper<R extends MappedRecord = MappedRecord> = (row: SourceRow) => MapOutcome<R>;

/**
 * Compiles a feed's mapping for one file (its header is checked once; a mismatch throws
 * SourceLayoutError). The returned function turns each row into a record validated against the
 * contract, a rejection naming field, column and reason, or an exclusion by a feed rule.
 */
export function compileMapper<K extends RecordKind>(
  feed: SourceFeed<K>,
  columns: Columns | undefined,
): RecordMapper<RecordOf<K>> {
  const definition = KINDS[feed.kind];
  const formats: CellFormats = {
    decimalSeparator: feed.source.decimalSeparator,
    dateFormat: compileDateFormat(feed.source.dateFormat),
  };
  const fields = definition.fields;
  const readers: [string, FieldReader][] = [];
  const implicit: [string, string | number | boolean][] = [];
  // Every mapped column the header lacks is named at once (some other file given as the export
  // lacks them all), not one per corrected run.
  const layout: SourceLayoutError[] = [];
  const checked = <T>(check: () => T): T | undefined => {
    try {
      return check();
    } catch (error) {
      if (!(error instanceof SourceLayoutError)) throw error;
      layout.push(error);
      return undefined;
    }
  };
  for (const [field, spec] of Object.entries(fields)) {
    const mapping = feed.mapping[field];
    if (mapping !== undefined) {
      const reader = checked(() => fieldReader(field, mapping, spec.type, columns, formats, spec.required));
      if (reader) readers.push([field, reader]);
    } else if (spec.implicit !== undefined) implicit.push([field, spec.implicit]);
  }
  for (const [field, value] of Object.entries(definition.payloadDefaults?.(feed) ?? {})) {
    if (feed.mapping[field] === undefined) implicit.push([field, value]);
  }
  const exclusions = feed.exclude.map((rule, i) => {
    // A misspelt column would make the rule silently exclude nothing: refuse it like a mapping.
    checked(() => {
      try {
        checkColumn(rule.column, columns);
      } catch (error) {
        throw error instanceof SourceLayoutError ? error.within(`exclude rule #${i + 1}: `) : error;
      }
    });
    const pattern = rule.matches === undefined ? undefined : new RegExp(rule.matches);
    const cellAt = cellOf(rule.column, columns);
    return (row: SourceRow) => {
      const cell = cellAt(row)?.trim() ?? '';
      return (rule.equals !== undefined && cell === rule.equals) || (pattern?.test(cell) ?? false)
        ? `excluded by the feed's exclude rule #${i + 1} (column ${JSON.stringify(rule.column)} is "${cell}")`
        : undefined;
    };
  });
  const stop = SourceLayoutError.all(layout);
  if (stop) throw stop;
  const schema = compiled(definition.create);
  const amountField = definition.amountField;
  const scheme = feed.identityScheme;
  const ids = new DerivedIds(scheme);
  // Scheme 2: the identity fields' converted values, kept per row in sorted-field order.
  const identityFields = definition.identityFields;
  const slotOf = new Map(identityFields.map((field, i) => [field, i]));
  const readerSlots = readers.map(([field]) => slotOf.get(field) ?? -1);
  const implicitSlots = implicit.map(([field]) => slotOf.get(field) ?? -1);
  const identityValues: (Converted | undefined)[] = new Array(identityFields.length);
  const { sendsExternalId } = definition;

  // A contract issue concerns the mapped field its path begins with; one of another field (an
  // implicit one, a derived externalId) or of the whole record is the row's.
  const mapped = new Set(readers.map(([field]) => field));
  const contractProblem = (issue: { path: readonly PropertyKey[]; message: string }): RecordProblem => {
    const message = `${issue.path.join('.') || 'record'}: ${issue.message}`;
    const field = issue.path[0];
    return typeof field === 'string' && mapped.has(field) ? { field, message } : { message };
  };
  const amountReader = readers.find(([field]) => field === amountField)?.[1];
  const statementAccountOf = statementAccountReader(feed, columns);
  const readerIsMoney = readers.map(([field]) => fields[field]?.type === 'amount');
  // Per row, each money field's decimal (undefined: not money, or empty), for the currency's check.
  const moneyDecimals: (string | undefined)[] = new Array(readers.length);
  const fractionCheck = fractionDigitsCheck(readers, moneyDecimals, feed.mapping);
  const pinnedCurrency = definition.pinnedCurrency?.(feed);

  const exclusionOf = (row: SourceRow): string | undefined => {
    if (row.leftOut !== undefined) return row.leftOut;
    for (const excluded of exclusions) {
      const reason = excluded(row);
      if (reason) return reason;
    }
    return undefined;
  };

  return (row) => {
    const reason = exclusionOf(row);
    if (reason !== undefined) {
      // An excluded row is still a record of the file: its amount (when readable) belongs in the
      // skipped control total, or the run's totals no longer add up to the file's own total.
      const read = amountReader?.(row);
      const amount = read?.ok ? read.value?.decimal : undefined;
      const record: ExcludedRecord = { file: row.file, line: row.line, reason, amount };
      if (row.key !== undefined) record.key = row.key;
      return { kind: 'excluded', record };
    }
    const payload: Record<string, unknown> = {};
    // Made for the first problem only: a row that maps allocates none.
    let problems: RecordProblem[] | undefined;
    let amount: string | undefined;
    identityValues.fill(undefined);
    moneyDecimals.fill(undefined);
    for (let r = 0; r < readers.length; r++) {
      const [field, read] = readers[r] as [string, FieldReader];
      const result = read(row);
      if (!result.ok) {
        problems ??= [];
        problems.push({ field, message: result.reason });
      } else if (result.value !== undefined) {
        payload[field] = (result.value as Converted).value;
        if (field === amountField) amount = result.value.decimal;
        if (readerIsMoney[r]) moneyDecimals[r] = result.value.decimal;
        const slot = readerSlots[r] ?? -1;
        if (slot >= 0) identityValues[slot] = result.value;
      }
    }
    for (let i = 0; i < implicit.length; i++) {
      const [field, value] = implicit[i] as [string, string | number | boolean];
      if (payload[field] !== undefined) continue;
      payload[field] = value;
      const slot = implicitSlots[i] ?? -1;
      if (slot >= 0) identityValues[slot] = { value };
    }
    const sourceId = typeof payload.externalId === 'string' ? payload.externalId : undefined;
    if (problems) return rejectedRow(row, sourceId, amount, 'INVALID_RECORD', problems);
    const externalId =
      sourceId ??
      ids.next(
        scheme === 1
          ? `${feed.kind}\u0000${JSON.stringify(payload)}`
          : identityContent(feed.kind, identityFields, identityValues),
        row.statement,
      );
    if (!sendsExternalId) delete payload.externalId;
    else payload.externalId = externalId;
    const valid = schema.safeParse(payload);
    if (!valid.success)
      return rejectedRow(row, externalId, amount, 'INVALID_RECORD', valid.error.issues.map(contractProblem));
    const statementAccount = statementAccountOf?.(row, payload);
    const currency =
      (typeof payload.currency === 'string' ? payload.currency : undefined) ??
      statementAccount?.currency ??
      pinnedCurrency;
    const tooFine = currency === undefined ? undefined : fractionCheck(currency);
    if (tooFine) return rejectedRow(row, externalId, amount, 'INVALID_RECORD', tooFine);
    const routed = definition.route?.(feed, statementAccount, valid.data);
    if (routed !== undefined && 'rejected' in routed)
      return rejectedRow(row, externalId, amount, 'UNKNOWN_ACCOUNT', [{ message: routed.rejected }]);
    const record: MappedRecord<RecordOf<K>['payload']> = {
      file: row.file,
      line: row.line,
      externalId,
      derivedId: sourceId === undefined,
      payload: valid.data,
      amount,
    };
    // Keys added only when there is something (no spread of a literal: a row's cost in a profile).
    if (routed?.route) record.route = routed.route;
    if (row.key !== undefined) record.key = row.key;
    if (row.booking) record.booking = bookingOf(row.booking, row.bookingId, externalId);
    return { kind: 'mapped', record: record as RecordOf<K> };
  };
}

/**
 * A rejected row with its problems, and its message made of theirs: the text people and the report
 * files read is the problems joined by "; ", so the two cannot tell different stories.
 */
function rejectedRow<R extends MappedRecord>(
  row: SourceRow,
  externalId: string | undefined,
  amount: string | undefined,
  code: 'INVALID_RECORD' | 'UNKNOWN_ACCOUNT',
  problems: readonly RecordProblem[],
): MapOutcome<R> {
  const message = problems.map((problem) => problem.message).join('; ');
  const record: RejectedRecord = {
    file: row.file,
    line: row.line,
    externalId,
    code,
    message,
    problems,
    amount,
  };
  if (row.key !== undefined) record.key = row.key;
  return { kind: 'rejected', record };
}

/**
 * A row's booking as its record carries it: the other shapes' IDs and a part's split only where the
 * record's externalId is the bank's reference the format gives (`bookingId`, the default mapping),
 * since only then do they name what the service holds of the booking. The reader's object as it is
 * when they apply or there are none; a copy without them otherwise.
 */
function bookingOf(booking: Booking, bookingId: string | undefined, externalId: string): Booking {
  if (bookingId === externalId || (booking.others.length === 0 && booking.split === undefined))
    return booking;
  const { split: _, ...rest } = booking;
  return { ...rest, others: [] };
}

/**
 * Bank formats: reads the statement account a row belongs to from the cells the format names, with
 * the account's currency (else the record's own); null when the statement names none. Undefined
 * (no reader) for formats whose rows are no statement's.
 */
function statementAccountReader(
  feed: SourceFeed<RecordKind>,
  columns: Columns | undefined,
): ((row: SourceRow, payload: Record<string, unknown>) => StatementAccount | null) | undefined {
  const cells = routeCellsOf(feed.source.format);
  if (cells === undefined) return undefined;
  const accountOf = cellOf(cells.account, columns);
  const currencyOf = cellOf(cells.currency, columns);
  const ibanOf = cells.iban === undefined ? undefined : cellOf(cells.iban, columns);
  // The rows of one statement name the same account: the last one read is given again (one
  // object for them all, never changed) while its cells are the same.
  let last: { text: string; currency: string; otherId: boolean; account: StatementAccount } | undefined;
  return (row, payload) => {
    const text = accountOf(row);
    if (text === undefined) return null;
    const currency =
      currencyOf(row)?.trim() || (typeof payload.currency === 'string' ? payload.currency : '');
    const otherId = ibanOf !== undefined && !ibanOf(row)?.trim();
    if (last && last.text === text && last.currency === currency && last.otherId === otherId)
      return last.account;
    const key = accountKey(text);
    if (!key) return null;
    const account: StatementAccount = { account: key };
    if (currency) account.currency = currency;
    if (otherId) account.otherId = true;
    last = { text, currency, otherId, account };
    return account;
  };
}

/**
 * An amount with more fraction digits than its currency has (0.0015 EUR, 1.5 JPY): the service
 * would keep it rounded, so it is refused naming field and column, never sent nor rounded here.
 * Kinds without a currency (invoices, plans) are not checked: their currency is not known here.
 * The check reads the row's money decimals as the mapper left them in `decimals` (by reader), and
 * the digits of the last currency asked for are kept (a file's rows share a few currencies).
 */
function fractionDigitsCheck(
  readers: readonly (readonly [string, FieldReader])[],
  decimals: readonly (string | undefined)[],
  mapping: SourceFeed<RecordKind>['mapping'],
): (currency: string) => RecordProblem[] | undefined {
  let lastCurrency: string | undefined;
  let lastDigits: number | undefined;
  return (currency) => {
    if (currency !== lastCurrency) {
      lastCurrency = currency;
      lastDigits = fractionDigitsOf(currency);
    }
    const digits = lastDigits;
    if (digits === undefined) return undefined;
    let problems: RecordProblem[] | undefined;
    for (let r = 0; r < decimals.length; r++) {
      const decimal = decimals[r];
      if (decimal === undefined || fractionDigitsIn(decimal) <= digits) continue;
      const field = readers[r]?.[0] ?? '';
      const column = mapping[field];
      const where = typeof column === 'string' ? ` (column ${JSON.stringify(column)})` : '';
      problems ??= [];
      problems.push({
        field,
        message: `${field}${where}: ${decimal} has ${fractionDigitsIn(decimal)} fraction digits, more than ${currency} has (${digits}); it is not rounded`,
      });
    }
    return problems;
  };
}
