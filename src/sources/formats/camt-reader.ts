import { SaxesParser, type SaxesTagNS } from 'saxes';
import { FileStopError } from '../file-stop.js';
import type { SourceItem } from '../row.js';
import { accountKey } from '../statement-account.js';
import { noteBalance } from './camt-balance.js';
import { Captured } from './camt-captured.js';
import { type CamtStatement, entryAmount, entryRows } from './camt-entry.js';
import { type CamtMessage, camtMessage, SUPPORTED_CAMT } from './camt-message.js';
import { CAMT_COLUMNS, CamtRow, notBooked } from './camt-row.js';
import type { CamtSource } from './camt-source.js';
import type { FormatReading } from './source-format.js';
import { StatementTally, type StatementTotals } from './statement-totals.js';
import { MAX_XML_DEPTH, writeBounded, XmlCapError, type XmlCaps } from './xml-bounds.js';

/** Depth of the elements below `Document` / the message element / one statement. */
const STATEMENT_DEPTH = 2;
const ENTRY_DEPTH = 3;

/** A camt text node is at most a few hundred characters (AddtlNtryInf: 500). */
const CAMT_CAPS: XmlCaps = { maxToken: 1024 * 1024, maxDepth: MAX_XML_DEPTH };

/**
 * Streams the entries of a camt.052, .053 or .054 file (any version .001.02 to .001.08) as rows
 * of named cells (camt-entry.ts), with saxes: the file is never held whole, only the entry being
 * read. A row's line is the line of its `<Ntry>` start tag (of its `<TxDtls>` for one transaction
 * of a split batch).
 *
 * A file that is not a supported camt message (its root element or namespace) stops with a
 * FileStopError naming the file and the namespace found. An entry that cannot be a row (no
 * amount, an unknown credit/debit mark) is a problem at its line. XML that is not well-formed
 * (a truncated file) ends the reading: the entries completed before it are rows, the entry in
 * progress is a problem at its line naming the parser's message, and nothing after it is read.
 */
export function readCamt(file: string, text: NodeJS.ReadableStream, source: CamtSource): FormatReading {
  const parse = new CamtParse(file, source.includePending, source.maxEntryElements);
  return {
    columns: Promise.resolve(CAMT_COLUMNS),
    batches: camtBatches(parse, text),
    statements: () => parse.statements,
  };
}

async function* camtBatches(parse: CamtParse, text: NodeJS.ReadableStream): AsyncGenerator<SourceItem[]> {
  for await (const chunk of text) {
    // After the end of reading the rest is still consumed: the file's fingerprint is taken from it.
    if (parse.ended()) continue;
    parse.write(String(chunk));
    const items = parse.take();
    if (items.length > 0) yield items;
  }
  parse.close();
  const stop = parse.stopped();
  if (stop) throw stop;
  const items = parse.take();
  if (items.length > 0) yield items;
}

/** Collapses the line breaks (and the indentation around them) of a value wrapped in the XML. */
function unwrapped(text: string): string {
  const trimmed = text.trim();
  return /[\r\n]/.test(trimmed) ? trimmed.replace(/\s*[\r\n]\s*/g, ' ') : trimmed;
}

class CamtParse {
  private readonly parser: SaxesParser<{ xmlns: true; position: true; fileName: string }>;
  /** Local names of the open elements, `Document` first. */
  private readonly stack: string[] = [];
  /**
   * For each open element its path below the statement, entry or transaction detail being read
   * ('' for those three themselves and the elements above them): built one name at a time as
   * elements open, the keys the values are captured under.
   */
  private readonly paths: string[] = [];
  private message: CamtMessage | undefined;
  private statement: CamtStatement | undefined;
  /** The statement's balances and booked entries, for the arithmetic check and the account's balance. */
  private tally: StatementTally | undefined;
  private balance: Captured | undefined;
  /** Every statement read to its end, in file order. */
  readonly statements: StatementTotals[] = [];
  private entry: Captured | undefined;
  private details: Captured[] = [];
  private detail: Captured | undefined;
  private detailDepth = 0;
  private startLine = 0;
  private text = '';
  private ready: SourceItem[] = [];
  private stop: FileStopError | undefined;
  private broken = false;
  /** Elements of the entry or balance being read: past maxEntryElements it is not kept. */
  private elements = 0;
  /**
   * Elements of the statement's own (outside its entries and balances): its `Id` and `Acct`
   * values are kept for the whole statement, so past maxEntryElements the statement is refused.
   */
  private ownElements = 0;

  constructor(
    private readonly file: string,
    private readonly includePending: boolean,
    private readonly maxEntryElements: number,
  ) {
    const parser = new SaxesParser({ xmlns: true, position: true, fileName: file });
    this.parser = parser;
    parser.on('opentagstart', () => {
      this.startLine = parser.line;
      // Checked before saxes resolves the element's namespace: it looks for a default namespace
      // through every open element, so a million nested ones would take a million squared steps.
      if (this.stack.length >= CAMT_CAPS.maxDepth)
        throw new XmlCapError(`elements nested more than ${CAMT_CAPS.maxDepth} deep`);
    });
    parser.on('opentag', (tag) => this.open(tag));
    parser.on('closetag', () => this.closeElement());
    parser.on('text', (text) => {
      this.text += text;
    });
    parser.on('cdata', (text) => {
      this.text += text;
    });
    parser.on('error', (error) => this.fail(error));
  }

  write(chunk: string): void {
    try {
      writeBounded(this.parser, chunk, CAMT_CAPS);
    } catch (error) {
      if (!(error instanceof XmlCapError)) throw error;
      this.end(`${error.message}, more than a camt file has`);
    }
  }

  close(): void {
    if (!this.ended()) this.parser.close();
  }

  ended(): boolean {
    return this.broken || this.stop !== undefined;
  }

  stopped(): FileStopError | undefined {
    return this.stop;
  }

  take(): SourceItem[] {
    const items = this.ready;
    this.ready = [];
    return items;
  }

  private open(tag: SaxesTagNS): void {
    if (this.ended()) return;
    const depth = this.stack.length;
    const local = tag.local;
    this.text = '';
    let scope = depth <= STATEMENT_DEPTH;
    if (depth === 0) {
      this.message = tag.local === 'Document' ? camtMessage(tag.uri) : undefined;
      if (!this.message)
        return this.unsupported(`the root element is <${tag.name}> in namespace "${tag.uri}"`);
    } else if (depth === 1 && local !== this.message?.message) {
      return this.unsupported(
        `<${tag.name}> below the Document of ${this.message?.name} (expected <${this.message?.message}>)`,
      );
    } else if (depth === STATEMENT_DEPTH && this.message && local === this.message.record) {
      this.statement = { message: this.message.name, values: new Captured(this.startLine) };
      this.tally = new StatementTally(this.startLine);
      this.ownElements = 0;
    } else if (depth === ENTRY_DEPTH && this.statement && local === 'Bal') {
      this.balance = new Captured(this.startLine);
      this.elements = 0;
      scope = true;
    } else if (depth === ENTRY_DEPTH && this.statement && local === 'Ntry') {
      this.entry = new Captured(this.startLine);
      this.details = [];
      this.elements = 0;
      scope = true;
    } else if (this.statement && !this.entry && !this.balance) {
      if (++this.ownElements > this.maxEntryElements) return this.statementTooLarge(this.statement);
    } else if ((this.entry || this.balance) && ++this.elements === this.maxEntryElements) {
      if (this.balance)
        return this.end(`a balance of more than maxEntryElements (${this.maxEntryElements}) elements`);
    } else if (
      this.entry &&
      depth === ENTRY_DEPTH + 2 &&
      local === 'TxDtls' &&
      this.stack[ENTRY_DEPTH + 1] === 'NtryDtls'
    ) {
      this.detail = new Captured(this.startLine);
      this.detailDepth = depth;
      scope = true;
    }
    const parent = this.paths[depth - 1] ?? '';
    const path = scope ? '' : parent === '' ? local : `${parent}/${local}`;
    this.stack.push(local);
    this.paths.push(path);
    // The one attribute read is an amount's currency: looking at every element's attributes
    // cost a sixth of the reader's time.
    const target = this.detail ?? this.entry ?? this.balance;
    if (!target || local !== 'Amt') return;
    const currency = tag.attributes.Ccy;
    if (currency) target.add(`${path}@Ccy`, currency.value);
  }

  private closeElement(): void {
    if (this.ended()) return;
    const value = unwrapped(this.text);
    this.text = '';
    const depth = this.stack.length - 1;
    const path = this.paths.pop() ?? '';
    this.stack.pop();
    if (value !== '' && path !== '' && this.elements < this.maxEntryElements) {
      if (this.detail) this.detail.add(path, value);
      else if (this.entry) this.entry.add(path, value);
      else if (this.balance) this.balance.add(path, value);
      // Of a statement's own elements only its id and account are read, not its balances.
      else if (this.statement && (path === 'Id' || path.startsWith('Acct/')))
        this.statement.values.add(path, value);
    }
    if (this.detail && depth === this.detailDepth) {
      this.details.push(this.detail);
      this.detail = undefined;
    } else if (this.entry && depth === ENTRY_DEPTH) {
      this.finishEntry(this.entry);
      this.entry = undefined;
    } else if (this.balance && depth === ENTRY_DEPTH) {
      if (this.tally) noteBalance(this.balance, this.tally);
      this.balance = undefined;
    } else if (depth === STATEMENT_DEPTH) this.finishStatement();
  }

  private finishStatement(): void {
    const { statement, tally } = this;
    this.statement = undefined;
    this.tally = undefined;
    if (!statement || !tally?.hasFigures()) return;
    const currency = statement.values.first('Acct/Ccy');
    const iban = statement.values.first('Acct/Id/IBAN');
    tally.set({
      id: statement.values.first('Id'),
      account: accountKey(iban || statement.values.first('Acct/Id/Othr/Id')),
      ...(currency ? { currency } : {}),
    });
    const figures = tally.figures;
    this.statements.push(iban === '' && figures.account !== '' ? { ...figures, otherId: true } : figures);
  }

  private finishEntry(entry: Captured): void {
    if (!this.statement) return;
    const whole = this.elements < this.maxEntryElements;
    this.elements = 0;
    const rows = whole
      ? entryRows(entry, this.details, this.statement)
      : `the entry has more than maxEntryElements (${this.maxEntryElements}) elements; it is not read`;
    if (whole) this.tallyEntry(entry);
    else this.tally?.unreadableEntry();
    if (typeof rows === 'string') {
      this.ready.push({ kind: 'problem', problem: { file: this.file, line: entry.line, problem: rows } });
      return;
    }
    for (const row of rows) {
      const leftOut = this.includePending ? undefined : notBooked(row.cells.status);
      this.ready.push({ kind: 'row', row: new CamtRow(this.file, row, leftOut) });
    }
  }

  /** A booked entry counts in the statement's arithmetic with its own amount (a batch's total). */
  private tallyEntry(entry: Captured): void {
    if (!this.tally || notBooked(entry.first('Sts/Cd', 'Sts', 'Sts/Prtry')) !== undefined) return;
    const amount = entryAmount(entry);
    if (amount === undefined) this.tally.unreadableEntry();
    else this.tally.entry(amount);
  }

  /**
   * A statement whose own elements pass the cap (a hostile file repeating `<Acct>` between its
   * entries): refused, and nothing after it read; the entries it handed on before are the ones
   * that stand.
   */
  private statementTooLarge(statement: CamtStatement): void {
    this.stop = new FileStopError(
      'SOURCE_TOO_LARGE',
      this.file,
      `${this.file}: the statement starting on line ${statement.values.line} has more than maxEntryElements (${this.maxEntryElements}) elements of its own (outside its entries and balances) by line ${this.startLine}, more than a camt statement has: it is refused, nothing after it is read and no balance of it is applied`,
    );
  }

  private unsupported(found: string): void {
    this.stop = new FileStopError(
      'CAMT_UNSUPPORTED',
      this.file,
      `${this.file}: not a supported camt message: ${found}; expected ${SUPPORTED_CAMT}`,
    );
  }

  private fail(error: Error): void {
    if (this.ended()) return;
    this.end(`not well-formed XML (${error.message})`);
  }

  /** Reading ends at `reason`: the entry in progress is a problem at its line, nothing after it is read. */
  private end(reason: string): void {
    if (this.ended()) return;
    if (!this.message) {
      // Nothing of the file could be recognised: the file, not an entry, is what is wrong.
      this.stop = new FileStopError(
        'CAMT_UNSUPPORTED',
        this.file,
        `${this.file}: not a camt message: the XML cannot be read (${reason}); expected ${SUPPORTED_CAMT}`,
      );
      return;
    }
    this.broken = true;
    const entry = this.entry;
    this.ready.push({
      kind: 'problem',
      problem: entry
        ? {
            file: this.file,
            line: entry.line,
            problem: `${reason}: the entry starting on this line is incomplete and is not read, nor anything after it`,
          }
        : {
            file: this.file,
            line: this.parser.line,
            problem: `${reason}: nothing after this point is read`,
          },
    });
  }
}
