import { createWriteStream } from 'node:fs';
import { PassThrough } from 'node:stream';
import { finished } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import { closeStream, failureOf, write } from './stream-write.js';

/**
 * A streaming xlsx writer: each sheet's XML goes through yazl (a zip writer that deflates an entry
 * as it is written, by the author of yauzl, which reads our xlsx sources) straight to the file, so
 * memory stays flat whatever the number of rows. Cells are inline strings or numbers (no shared
 * strings table, which would be held whole); a sheet holds at most `maxRows` data rows below its
 * header row (Excel's limit: 1,048,576 rows a sheet), then a new sheet starts.
 */

/** `text`: a string cell whatever it holds (IDs: no 1.2E+15); `number`: a numeric cell when exact. */
export type XlsxColumnType = 'text' | 'number';

export interface XlsxColumn {
  readonly name: string;
  readonly type: XlsxColumnType;
  /** In Excel's character widths. */
  readonly width: number;
}

/** Excel's rows a sheet (1,048,576) less the header row. */
export const EXCEL_MAX_DATA_ROWS = 1_048_575;

const DECIMAL = /^-?(\d+)(?:\.(\d+))?$/;

/**
 * Whether a decimal string becomes a double that Excel shows as the same decimal: at most 15
 * significant digits (a double holds every such decimal; Excel shows 15). Longer ones would be
 * rounded, and money is never rounded silently: they are written as text.
 */
export function exactAsNumber(value: string): boolean {
  const parts = DECIMAL.exec(value);
  if (!parts) return false;
  const digits = `${parts[1]}${parts[2] ?? ''}`.replace(/^0+/, '').replace(/0+$/, '');
  return digits.length <= 15;
}

const XML_SPECIAL = /[&<>"]/g;
const XML_ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
/** Characters XML 1.0 cannot hold, written as Excel's `_xHHHH_`; a literal `_xHHHH_` escapes its `_`. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters to find and escape.
const NOT_XML = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|_(?=x[0-9A-Fa-f]{4}_)/g;

export function xmlText(value: string): string {
  return value
    .replace(NOT_XML, (c) =>
      c === '_' ? '_x005F_' : `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`,
    )
    .replace(XML_SPECIAL, (c) => XML_ENTITY[c] as string);
}

/** A column's letters as Excel names it: 0 → A, 25 → Z, 26 → AA. */
export function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
/** Style 0 plain, style 1 bold (the header row). */
const STYLES = `${XML_HEAD}<styleSheet xmlns="${NS}"><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;

/** Rows are joined into pieces of about this many characters before they are written. */
const PIECE = 64 * 1024;

export class XlsxWriter {
  private readonly zip = new ZipFile();
  private readonly file: ReturnType<typeof createWriteStream>;
  private sheet: PassThrough | undefined;
  private sheets = 0;
  private rowsInSheet = 0;
  private piece = '';
  /** Each column's letters, named once rather than per cell. */
  private readonly letters: readonly string[];
  /** Rejects when the file cannot be opened or written: every wait races it. */
  private readonly failure: Promise<never>;

  constructor(
    path: string,
    private readonly columns: readonly XlsxColumn[],
    private readonly sheetName: string,
    private readonly maxRows = EXCEL_MAX_DATA_ROWS,
  ) {
    this.letters = columns.map((_, i) => columnLetters(i));
    this.file = createWriteStream(path);
    this.failure = failureOf(this.file);
    this.zip.outputStream.pipe(this.file);
  }

  /** One data row: a cell per column, undefined for an empty one. */
  async addRow(cells: readonly (string | number | undefined)[]): Promise<void> {
    if (!this.sheet || this.rowsInSheet >= this.maxRows) await this.newSheet();
    this.rowsInSheet++;
    this.piece += this.rowXml(this.rowsInSheet + 1, cells);
    if (this.piece.length >= PIECE) await this.flush();
  }

  /** Ends the last sheet, writes the workbook's index parts and waits until the file is whole. */
  async finish(): Promise<void> {
    if (!this.sheet) await this.newSheet();
    await this.endSheet();
    const sheets = Array.from({ length: this.sheets }, (_, i) => i + 1);
    this.zip.addBuffer(Buffer.from(contentTypes(sheets)), '[Content_Types].xml');
    this.zip.addBuffer(
      Buffer.from(
        `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      ),
      '_rels/.rels',
    );
    this.zip.addBuffer(Buffer.from(this.workbookXml(sheets)), 'xl/workbook.xml');
    this.zip.addBuffer(Buffer.from(workbookRels(sheets)), 'xl/_rels/workbook.xml.rels');
    this.zip.addBuffer(Buffer.from(STYLES), 'xl/styles.xml');
    this.zip.end();
    await Promise.race([finished(this.file), this.failure]);
  }

  private async newSheet(): Promise<void> {
    if (this.sheet) await this.endSheet();
    this.sheets++;
    this.rowsInSheet = 0;
    const sheet = new PassThrough();
    this.sheet = sheet;
    this.zip.addReadStream(sheet, `xl/worksheets/sheet${this.sheets}.xml`);
    const cols = this.columns
      .map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width}" customWidth="1"/>`)
      .join('');
    const header = this.columns
      .map((c, i) => `<c r="${columnLetters(i)}1" s="1" t="inlineStr"><is><t>${xmlText(c.name)}</t></is></c>`)
      .join('');
    // The header row frozen, so it stays in view while scrolling.
    this.piece = `${XML_HEAD}<worksheet xmlns="${NS}"><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews><cols>${cols}</cols><sheetData><row r="1">${header}</row>`;
  }

  private async endSheet(): Promise<void> {
    const sheet = this.sheet as PassThrough;
    this.piece += '</sheetData></worksheet>';
    await this.flush();
    await Promise.race([closeStream(sheet), this.failure]);
  }

  private async flush(): Promise<void> {
    const piece = this.piece;
    this.piece = '';
    await Promise.race([write(this.sheet as PassThrough, piece), this.failure]);
  }

  private rowXml(row: number, cells: readonly (string | number | undefined)[]): string {
    let xml = `<row r="${row}">`;
    for (let i = 0; i < this.columns.length; i++) {
      const value = cells[i];
      if (value === undefined || value === '') continue;
      const ref = `${this.letters[i]}${row}`;
      const text = String(value);
      xml +=
        this.columns[i]?.type === 'number' && exactAsNumber(text)
          ? `<c r="${ref}"><v>${text}</v></c>`
          : `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${xmlText(text)}</t></is></c>`;
    }
    return `${xml}</row>`;
  }

  private workbookXml(sheets: readonly number[]): string {
    const list = sheets
      .map(
        (n) =>
          `<sheet name="${xmlText(n === 1 ? this.sheetName : `${this.sheetName} ${n}`)}" sheetId="${n}" r:id="rId${n}"/>`,
      )
      .join('');
    return `${XML_HEAD}<workbook xmlns="${NS}" xmlns:r="${REL_NS}"><sheets>${list}</sheets></workbook>`;
  }
}

function contentTypes(sheets: readonly number[]): string {
  const overrides = sheets
    .map(
      (n) =>
        `<Override PartName="/xl/worksheets/sheet${n}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
    )
    .join('');
  return `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>${overrides}</Types>`;
}

function workbookRels(sheets: readonly number[]): string {
  const rels = sheets
    .map((n) => `<Relationship Id="rId${n}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${n}.xml"/>`)
    .join('');
  const styles = `<Relationship Id="rId${sheets.length + 1}" Type="${REL_NS}/styles" Target="styles.xml"/>`;
  return `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">${rels}${styles}</Relationships>`;
}
