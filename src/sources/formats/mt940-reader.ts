import type { SourceItem, SourceRow } from '../row.js';
import { accountKey } from '../statement-account.js';
import { isZeroDecimal } from '../values/decimal.js';
import { bookingOf, placeOf, type StatementPlace } from './mt940-booking.js';
import { MT940_CELLS, MT940_COLUMNS, type Mt940Cell, SEPA_CELLS } from './mt940-cells.js';
import { type EntryDetails, readDetails } from './mt940-details.js';
import { dateOf, decimalOf, type EntryLine, readEntryLine } from './mt940-entry-line.js';
import type { Mt940Source } from './mt940-source.js';
import type { FormatReading } from './source-format.js';
import { StatementTally, type StatementTotals } from './statement-totals.js';

/** Tags only an MT942 interim report has: its entries are not booked yet. */
const INTERIM_TAGS = new Set(['34F', '13D', '90D', '90C']);

/** A field longer than this is no MT940 field (at most 6 × 65 characters for `:86:`): a broken file. */
const MAX_FIELD_CHARS = 64 * 1024;

/**
 * At most this many entries, and this much of their text (`:61:` and `:86:`), wait for the
 * currency of a statement that names none before its entries: memory stays bounded whatever the
 * statement's size (each waiting entry is also its read fields, some hundreds of bytes).
 */
export const MAX_HELD_ENTRIES = 10_000;
export const MAX_HELD_CHARS = 4 * 1024 * 1024;

/** The statement (`:20:` to `-`) an entry belongs to. */
interface Statement {
  /** The line it starts at. */
  line: number;
  reference?: string;
  related?: string;
  account?: string;
  number?: string;
  currency?: string;
  interim: boolean;
  /** Its booked balances and entries (statement-totals.ts). */
  tally: StatementTally;
  /**
   * What it handed out while its currency was not known yet (no balance before its entries), in
   * file order: its entries wait for a later balance (`:62F:`) to name the currency.
   */
  held: Held[];
  heldChars: number;
  /** More than MAX_HELD_ENTRIES or MAX_HELD_CHARS waited: its entries are refused until a currency is named. */
  overflow: boolean;
  /** Its account as compared and its appearance, once an entry needed them (placeOf). */
  place: StatementPlace | undefined;
}

/** An entry read whole, waiting for its statement's currency; or a problem waiting in file order. */
type Held = { open: OpenEntry; line: EntryLine; details: EntryDetails } | { problem: number; text: string };

/** The currency a balance (`:60F:`, `:62F:`, `:64:`, `:65:`, ...) names: D/C mark, date YYMMDD, currency. */
const BALANCE_CURRENCY = /^[CD]\d{6}([A-Z]{3})/;
/** MT942's number and sum of entries (`:90D:`, `:90C:`): count, currency, amount. */
const COUNT_CURRENCY = /^\d{1,5}([A-Z]{3})/;

/** A balance field (`:60F:`, `:62M:`, ...): D/C mark, date YYMMDD, currency, amount with a decimal comma. */
const BALANCE = /^([CD])(\d{6})([A-Z]{3})(\d{1,15},\d*)$/;

/** A field being read: its tag, the line of the tag, and its lines as written after the tag. */
interface Field {
  tag: string;
  line: number;
  lines: string[];
  chars: number;
}

interface OpenEntry {
  line: number;
  entry: string[];
  details?: string[];
  statement: Statement;
}

const TAG_LINE = /^:(\d{2}[A-Z]?):(.*)$/;
/** A tag the bank broke over two lines (`:` / `86:…`): joined with the next line. */
const BROKEN_TAG = /^:\d{0,2}[A-Z]?$/;
/** SWIFT blocks before the text block (`{1:…}`, `{2:I940…}`, `{4:`), on lines of their own or with the first field. */
const SWIFT_BLOCKS = /^((?:\{[1-3]:[^}]*\})*)(\{4:)?(.*)$/;
/** The end of a statement (`-`) or of a SWIFT message (`-}`, maybe with its trailer blocks). */
const STATEMENT_END = /^-(\}.*)?$/;
const SWIFT_MESSAGE_TYPE = /\{2:[IO](94[02])/;
/** A bank's own message header line (Rabobank's `:940:` before the first field). */
const MESSAGE_TYPE_LINE = /^:(94[02]):$/;
/** ABN AMRO's header lines before a message: the bank's BIC, the message type, the BIC again. */
const BIC_LINE = /^[A-Z]{6}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/;
const MESSAGE_TYPE = /^94[02]$/;
/** The control bytes SWIFT puts around a message: SOH (0x01) before it, ETX (0x03) after it. */
const SOH = 0x01;
const ETX = 0x03;

/**
 * Streams the entries of MT940 statements and MT942 interim reports: each `:61:` with its `:86:`
 * is one row, at the line of its `:61:`. Reads with or without SWIFT blocks (`{1:}{2:}{4:}`, the
 * `-}` trailer) and the framing banks put around a message (SOH/ETX bytes, a `:940:` line, BIC /
 * message type / BIC lines), line by line as the text comes (memory holds one statement's header
 * and one entry; entries before their statement names its currency wait for it, up to
 * MAX_HELD_ENTRIES and MAX_HELD_CHARS). An entry goes out with its own statement's currency or not at all. An entry
 * whose `:61:` does not read (a 30 February, a broken amount) is a problem at its line, as is the
 * entry a file ends in (cut short); the file's other entries are read on. Entries of an MT942
 * report are pending: `leftOut` unless `includePending`. Balances and unknown fields are not
 * entries and not read.
 */
export function readMt940(file: string, text: NodeJS.ReadableStream, source: Mt940Source): FormatReading {
  const reader = new Mt940Reader(file, source);
  return {
    columns: Promise.resolve(MT940_COLUMNS),
    batches: batchesOf(reader, text),
    statements: () => reader.statements,
  };
}

async function* batchesOf(reader: Mt940Reader, text: NodeJS.ReadableStream): AsyncGenerator<SourceItem[]> {
  let rest = '';
  /** Inside a line too long to be MT940 (a binary file): its text is not kept. */
  let skipping = false;
  for await (const chunk of text) {
    rest += typeof chunk === 'string' ? chunk : String(chunk);
    // A CR at the end may be the first half of a CRLF: it waits for the next piece.
    const lines = rest.split(/\r\n|\n|\r(?!$)/);
    rest = lines.pop() ?? '';
    if (skipping && lines.length > 0) {
      lines[0] = '';
      skipping = false;
    }
    for (const line of lines) reader.line(line);
    if (rest.length > MAX_FIELD_CHARS) {
      if (!skipping) reader.overlongLine();
      skipping = true;
      rest = '';
    }
    const ready = reader.take();
    if (ready.length > 0) yield ready;
  }
  if (skipping) rest = '';
  if (rest !== '') for (const line of rest.split(/\r\n|\n|\r/)) reader.line(line);
  reader.end();
  const ready = reader.take();
  if (ready.length > 0) yield ready;
}

class Mt940Reader {
  private lineNo = 0;
  private ready: SourceItem[] = [];
  private statement: Statement = newStatement(false, 1);
  /** Every MT940 statement read to its end, in file order (an MT942 report has no booked balances). */
  readonly statements: StatementTotals[] = [];
  /** The message type of the SWIFT header before the statement, when there is one. */
  private headerInterim = false;
  private field: Field | undefined;
  private entry: OpenEntry | undefined;
  private brokenTag: { text: string; line: number } | undefined;
  /**
   * Lines that belong to no field, reported as one problem per run, unless the run is a bank's
   * header (BIC / message type / BIC): its first lines are kept to tell (at most 4).
   */
  private stray: { from: number; to: number; texts: string[] } | undefined;

  constructor(
    private readonly file: string,
    private readonly source: Mt940Source,
  ) {}

  take(): SourceItem[] {
    const full = this.ready;
    this.ready = [];
    return full;
  }

  line(raw: string): void {
    this.lineNo++;
    let text = raw;
    let at = this.lineNo;
    if (this.brokenTag) {
      text = this.brokenTag.text + raw.trim();
      at = this.brokenTag.line;
      this.brokenTag = undefined;
    }
    let trimmed = text.trim();
    const first = trimmed.charCodeAt(0);
    const last = trimmed.charCodeAt(trimmed.length - 1);
    if (first !== SOH && last !== ETX) {
      this.content(text, trimmed, at);
      return;
    }
    // SOH starts a message (what came before it is complete), ETX ends one: framing, not text.
    if (first === SOH) this.endStatement();
    let from = 0;
    let to = trimmed.length;
    while (from < to && trimmed.charCodeAt(from) === SOH) from++;
    while (to > from && trimmed.charCodeAt(to - 1) === ETX) to--;
    trimmed = trimmed.slice(from, to).trim();
    this.content(trimmed, trimmed, at);
    if (last === ETX) this.endStatement();
  }

  /** A line without its SOH/ETX framing: `trimmed` is `text` without surrounding white space. */
  private content(text: string, trimmed: string, at: number): void {
    if (trimmed === '') return;
    const header = SWIFT_BLOCKS.exec(trimmed);
    if (header && (header[1] !== '' || header[2] !== undefined)) {
      // A SWIFT header starts a message: what came before it is complete.
      const type = SWIFT_MESSAGE_TYPE.exec(header[1] ?? '')?.[1];
      if (type !== undefined) this.headerInterim = type === '942';
      this.endStatement();
      const after = (header[3] ?? '').trim();
      if (after !== '') this.textLine(after, at);
      return;
    }
    // (Only a line of five characters can be one: no regular expression on every line.)
    const messageType = trimmed.length === 5 ? MESSAGE_TYPE_LINE.exec(trimmed)?.[1] : undefined;
    if (messageType !== undefined) {
      // A bank's header line (`:940:`) starts a message, like a SWIFT header.
      this.headerInterim = messageType === '942';
      this.endStatement();
      return;
    }
    // The trailer of a SWIFT message (checksums) carries nothing of the statement.
    if (trimmed.startsWith('{5:')) return;
    if (STATEMENT_END.test(trimmed)) {
      this.endStatement();
      return;
    }
    if (BROKEN_TAG.test(trimmed)) {
      this.brokenTag = { text: trimmed, line: at };
      return;
    }
    this.textLine(text, at);
  }

  /**
   * The next line is longer than any MT940 field: it ends the field being read (the entry before
   * it goes out as read so far, in file order), is reported, and counts as an empty line.
   */
  overlongLine(): void {
    this.closeField();
    this.emitEntry();
    this.problem(
      this.lineNo + 1,
      `line ${this.lineNo + 1} is longer than ${MAX_FIELD_CHARS} characters: not MT940 text; reading goes on at the next line`,
    );
  }

  /** A line of the text block: a new field, or the next line of the one being read. */
  private textLine(text: string, at: number): void {
    const tag = TAG_LINE.exec(text.trim());
    if (tag) {
      this.endStray();
      this.closeField();
      this.openField(tag[1] as string, tag[2] as string, at);
      return;
    }
    const field = this.field;
    if (!field) {
      if (!this.stray) this.stray = { from: at, to: at, texts: [] };
      this.stray.to = at;
      if (this.stray.texts.length < 4) this.stray.texts.push(text.trim());
      return;
    }
    field.chars += text.length;
    if (field.chars > MAX_FIELD_CHARS) {
      // An entry whose :61: or :86: runs on is not read at all: half of it is no record.
      const entryLine = field.tag === '86' ? this.entry?.line : field.tag === '61' ? field.line : undefined;
      if (entryLine !== undefined) this.entry = undefined;
      this.problem(
        entryLine ?? field.line,
        `field :${field.tag}: (from line ${field.line}) goes on for more than ${MAX_FIELD_CHARS} characters: not MT940 text${entryLine === undefined ? '' : '; the entry is not read'}`,
      );
      this.field = undefined;
      return;
    }
    field.lines.push(text);
  }

  end(): void {
    if (this.brokenTag) this.textLine(this.brokenTag.text, this.brokenTag.line);
    this.brokenTag = undefined;
    this.closeField();
    const cut = this.entry;
    if (cut) {
      // The file ends in an entry, before its statement's closing balance or end: a file cut
      // short ends like that, so the entry may lack the rest of its :86: (or of its amount).
      this.entry = undefined;
      cut.statement.tally.unreadableEntry();
      this.problem(
        cut.line,
        'the file ends in the entry of this :61:, before its statement’s closing balance (:62F:) or end (-): the file may be cut short here, so the entry may be incomplete; it is not read',
      );
    }
    this.endStatement();
    this.endStray();
  }

  private endStatement(): void {
    this.closeField();
    this.emitEntry();
    this.nextStatement(this.lineNo + 1);
  }

  /** Files the statement read so far (when it has figures) and starts the next at `line`. */
  private nextStatement(line: number): void {
    // Entries still waiting: their statement named no currency at all.
    this.release(
      this.statement,
      'its statement names no currency: no balance (:60F:, :62F:, :64:) nor :34F: gives one',
    );
    const { tally, interim, reference, number, account, currency } = this.statement;
    if (!interim && tally.hasFigures()) {
      tally.set({
        id: [reference, number].filter((part) => part !== undefined && part !== '').join(' '),
        account: account === undefined ? '' : accountKey(account),
        ...(currency ? { currency } : {}),
      });
      this.statements.push(tally.figures);
    }
    this.statement = newStatement(this.headerInterim, line);
  }

  private endStray(): void {
    if (!this.stray) return;
    const { from, to, texts } = this.stray;
    this.stray = undefined;
    const [sender = '', type = '', receiver = ''] = texts;
    if (texts.length === 3 && BIC_LINE.test(sender) && MESSAGE_TYPE.test(type) && BIC_LINE.test(receiver)) {
      // The bank's header lines before a message (ABN AMRO): framing, not text.
      this.headerInterim = type === '942';
      return;
    }
    this.problem(
      from,
      `${from === to ? `line ${from} is` : `lines ${from}-${to} are`} not part of an MT940 field: expected a field tag such as :20: or :61: at the start of a line`,
    );
  }

  private openField(tag: string, first: string, line: number): void {
    // The entry ends where a field other than its own :86: begins.
    if (this.entry && (tag !== '86' || this.entry.details)) this.emitEntry();
    if (tag === '20') this.nextStatement(line);
    this.field = { tag, line, lines: [first], chars: first.length };
  }

  private closeField(): void {
    const field = this.field;
    if (!field) return;
    this.field = undefined;
    const value = field.lines.join('\n').trim();
    const statement = this.statement;
    if (INTERIM_TAGS.has(field.tag)) statement.interim = true;
    switch (field.tag) {
      case '20':
        statement.reference = value;
        break;
      case '21':
        statement.related = value;
        break;
      case '25':
        statement.account = value;
        break;
      case '28C':
        statement.number = value;
        break;
      case '60F':
      case '60M':
      case '62F':
      case '62M':
        this.noteBalance(field.tag.startsWith('60') ? 'opening' : 'closing', value);
        this.currencyOf(BALANCE_CURRENCY.exec(value)?.[1]);
        break;
      case '64':
      case '65':
        this.currencyOf(BALANCE_CURRENCY.exec(value)?.[1]);
        break;
      case '34F':
        this.currencyOf(/^([A-Z]{3})/.exec(value)?.[1]);
        break;
      case '90D':
      case '90C':
        this.currencyOf(COUNT_CURRENCY.exec(value)?.[1]);
        break;
      case '61':
        this.entry = { line: field.line, entry: field.lines, statement };
        break;
      case '86':
        if (this.entry && !this.entry.details) this.entry.details = field.lines;
        break;
    }
  }

  private emitEntry(): void {
    const open = this.entry;
    if (!open) return;
    this.entry = undefined;
    const line = readEntryLine(open.entry);
    if (!line.ok) open.statement.tally.unreadableEntry();
    else open.statement.tally.entry(line.value.amount);
    if (!line.ok) {
      this.problem(open.line, `${line.reason}; the entry is not read`);
      return;
    }
    const details = readDetails(open.details ?? []);
    const { statement } = open;
    if (statement.currency !== undefined) {
      this.ready.push({ kind: 'row', row: this.row(open, line.value, details) });
      return;
    }
    if (statement.overflow) {
      this.problem(open.line, noCurrency(HELD_TOO_LONG, statement));
      return;
    }
    statement.held.push({ open, line: line.value, details });
    statement.heldChars += textLength(open.entry) + textLength(open.details ?? []);
    if (statement.held.length > MAX_HELD_ENTRIES || statement.heldChars > MAX_HELD_CHARS) {
      this.release(statement, HELD_TOO_LONG);
      statement.overflow = true;
    }
  }

  /** The statement's currency, once a field names it: the entries waiting for it go out. */
  private currencyOf(code: string | undefined): void {
    const statement = this.statement;
    if (code === undefined || statement.currency !== undefined) return;
    statement.currency = code;
    this.release(statement, undefined);
  }

  /**
   * Hands out what waited, in file order: entries as rows once the currency is known, or each
   * refused at its line with `refusal` when it cannot be known.
   */
  private release(statement: Statement, refusal: string | undefined): void {
    const held = statement.held;
    if (held.length === 0) return;
    statement.held = [];
    statement.heldChars = 0;
    for (const item of held) {
      if ('problem' in item) this.ready.push(this.problemItem(item.problem, item.text));
      else if (refusal === undefined)
        this.ready.push({ kind: 'row', row: this.row(item.open, item.line, item.details) });
      else this.ready.push(this.problemItem(item.open.line, noCurrency(refusal, statement)));
    }
  }

  private row(open: OpenEntry, line: EntryLine, details: EntryDetails): SourceRow {
    const { statement } = open;
    const cells: Record<Mt940Cell, string | undefined> = {
      valueDate: line.valueDate,
      bookingDate: line.bookingDate,
      amount: line.amount,
      currency: statement.currency,
      mark: line.mark,
      fundsCode: line.fundsCode,
      transactionType: line.transactionType,
      customerReference: line.customerReference,
      bankReference: line.bankReference,
      supplementaryDetails: line.supplementaryDetails,
      gvc: details.gvc,
      postingText: details.postingText,
      primaNota: details.primaNota,
      purpose: details.purpose,
      purposeText: details.purposeText,
      counterpartyName: details.counterpartyName,
      counterpartyIban: details.counterpartyIban,
      counterpartyBic: details.counterpartyBic,
      counterpartyAccount: details.counterpartyAccount,
      counterpartyBankCode: details.counterpartyBankCode,
      textKeyExtension: details.textKeyExtension,
      endToEndReference: undefined,
      sepaCustomerReference: undefined,
      mandateReference: undefined,
      creditorId: undefined,
      debtorId: undefined,
      ultimateDebtor: undefined,
      ultimateCreditor: undefined,
      originalAmount: undefined,
      compensationAmount: undefined,
      account: statement.account,
      statementReference: statement.reference,
      relatedReference: statement.related,
      statement: statement.number,
      messageType: statement.interim ? 'MT942' : 'MT940',
      status: statement.interim ? 'pending' : 'booked',
    };
    for (const [tag, cell] of SEPA_CELLS) cells[cell] = details.sepa.get(tag);
    // NOTPROVIDED is how SEPA writes "no end-to-end reference".
    if (cells.endToEndReference?.toUpperCase() === 'NOTPROVIDED') cells.endToEndReference = undefined;
    const values = MT940_CELLS.map((name) => cells[name]);
    const raw = [`:61:${open.entry.join('\n')}`, ...(open.details ? [`:86:${open.details.join('\n')}`] : [])];
    const place = placeOf(statement, statement.place);
    statement.place = place;
    const booking = bookingOf(place, open.line, line);
    const row: SourceRow = {
      file: this.file,
      line: open.line,
      cell: (ref) => {
        const index = MT940_COLUMNS.indexOf(ref);
        return index === undefined ? undefined : values[index];
      },
      cellAt: (index) => values[index],
      text: () => raw.join('\n'),
      booking,
      bookingId: booking?.reference,
      statement: place.appearance,
    };
    if (!statement.interim || this.source.includePending) return row;
    return {
      ...row,
      leftOut:
        'pending: an entry of an MT942 interim report, not booked yet (it comes back booked in the MT940 statement); includePending: true syncs it',
    };
  }

  /** A booked balance that does not read (a 30 February) is left out of the statement's figures. */
  private noteBalance(which: 'opening' | 'closing', value: string): void {
    const [, mark, yymmdd = '', , amount = ''] = BALANCE.exec(value) ?? [];
    if (mark === undefined) return;
    const date = dateOf(yymmdd);
    if (!date.ok) return;
    const decimal = decimalOf(amount);
    const zero = isZeroDecimal(decimal);
    this.statement.tally.balance(which, {
      amount: mark === 'D' && !zero ? `-${decimal}` : decimal,
      date: date.value,
    });
  }

  /** A problem goes out in file order: after the entries still waiting for their currency. */
  private problem(line: number, problem: string): void {
    if (this.statement.held.length > 0) this.statement.held.push({ problem: line, text: problem });
    else this.ready.push(this.problemItem(line, problem));
  }

  private problemItem(line: number, problem: string): SourceItem {
    return { kind: 'problem', problem: { file: this.file, line, problem } };
  }
}

const HELD_TOO_LONG = `its statement names no currency before more than ${MAX_HELD_ENTRIES.toLocaleString('en')} entries or ${MAX_HELD_CHARS / 1024 / 1024} MiB of entry text (no opening balance :60F:)`;

const noCurrency = (reason: string, statement: Statement): string =>
  `${reason} (statement from line ${statement.line}), and an entry is never sent in an assumed currency; the entry is not read`;

const newStatement = (interim: boolean, line: number): Statement => ({
  line,
  interim,
  tally: new StatementTally(line),
  held: [],
  heldChars: 0,
  overflow: false,
  place: undefined,
});

const textLength = (lines: readonly string[]): number => lines.reduce((sum, line) => sum + line.length, 0);
