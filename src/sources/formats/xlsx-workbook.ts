import { posix } from 'node:path';
import { attribute, localName, parsePart, unescapeXstring } from './xlsx-xml.js';
import { type PartCaps, XlsxFileError, type ZipParts } from './xlsx-zip.js';

/** What the rows of a sheet need from the rest of the workbook. */
export interface Workbook {
  /** The sheet's part in the archive, e.g. xl/worksheets/sheet1.xml. */
  readonly sheetPart: string;
  readonly sheetName: string;
  /** Dates count days from 1904-01-01 (old Mac workbooks) instead of 1899-12-30. */
  readonly date1904: boolean;
  /** Indexes of the cell styles (`s`) whose number format shows a date. */
  readonly dateStyles: ReadonlySet<number>;
  /**
   * The shared strings table. Cells refer to it by index from anywhere in the sheet, so it is
   * held whole: the one part of an xlsx file that memory grows with.
   */
  readonly sharedStrings: readonly string[];
}

/** The caps of a workbook's parts (the feed's keys of them). */
export interface WorkbookCaps {
  readonly maxSharedStringsBytes: number;
  readonly maxCompressionRatio: number;
}

/**
 * The sheet list, relationships and styles are read whole; no program writes them anywhere near
 * this size (a workbook with 64,000 cell styles has a styles part of about 10 MB).
 */
const INDEX_PART_BYTES = 32 * 1024 * 1024;

/** A sheet Excel does not show as a tab (`state` hidden or veryHidden) is read only when named. */
const HIDDEN = new Set(['hidden', 'veryHidden']);

const WORKBOOK = 'xl/workbook.xml';
export const SHARED_STRINGS = 'xl/sharedStrings.xml';
const SPREADSHEET = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The sheet a feed reads: its part, its name, and the workbook's date system. */
export type SheetPlace = Pick<Workbook, 'sheetPart' | 'sheetName' | 'date1904'>;

/**
 * Reads the workbook's index parts and finds the sheet: the named one, else the first one Excel
 * shows (a hidden sheet first in the list is a lookup table or a macro's scratch, not the export).
 */
export async function readWorkbook(
  file: string,
  zip: ZipParts,
  wanted: string | undefined,
  caps: WorkbookCaps,
): Promise<Workbook> {
  const index: PartCaps = { maxBytes: INDEX_PART_BYTES, maxRatio: caps.maxCompressionRatio };
  return {
    ...(await findSheet(file, zip, wanted, caps)),
    dateStyles: await dateStyles(zip, index),
    sharedStrings: await sharedStrings(zip, {
      maxBytes: caps.maxSharedStringsBytes,
      maxRatio: caps.maxCompressionRatio,
    }),
  };
}

/** The sheet list and its relationships only: which part holds the sheet the feed reads. */
export async function findSheet(
  file: string,
  zip: ZipParts,
  wanted: string | undefined,
  caps: WorkbookCaps,
): Promise<SheetPlace> {
  const index: PartCaps = { maxBytes: INDEX_PART_BYTES, maxRatio: caps.maxCompressionRatio };
  const workbook = await zip.text(WORKBOOK, index);
  if (!workbook)
    throw new XlsxFileError(
      file,
      `not an xlsx workbook: the zip archive has no ${WORKBOOK} (${SPREADSHEET})`,
    );
  const sheets: { name: string; rel: string; hidden: boolean }[] = [];
  let date1904 = false;
  await parsePart(workbook, INDEX_PART_BYTES, {
    open(tag) {
      const name = localName(tag);
      if (name === 'workbookPr') date1904 = ['1', 'true'].includes(attribute(tag, 'date1904') ?? '');
      if (name === 'sheet')
        sheets.push({
          name: attribute(tag, 'name') ?? '',
          rel: attribute(tag, 'r:id') ?? relId(tag) ?? '',
          hidden: HIDDEN.has(attribute(tag, 'state') ?? ''),
        });
    },
  });
  const sheet = wanted === undefined ? sheets.find((s) => !s.hidden) : sheets.find((s) => s.name === wanted);
  if (!sheet) {
    const there =
      sheets.map((s) => `${JSON.stringify(s.name)}${s.hidden ? ' (hidden)' : ''}`).join(', ') || 'none';
    throw new XlsxFileError(
      file,
      wanted === undefined
        ? sheets.length === 0
          ? 'the workbook has no sheet'
          : `the workbook shows no sheet: every sheet is hidden (${there}); name the one to read in source.sheet`
        : `the workbook has no sheet named ${JSON.stringify(wanted)} (source.sheet); its sheets: ${there}`,
    );
  }
  const targets = await relationships(zip, 'xl/_rels/workbook.xml.rels', index);
  const target = targets.get(sheet.rel);
  const sheetPart = target === undefined ? undefined : partPath('xl', target);
  if (sheetPart === undefined || !zip.has(sheetPart))
    throw new XlsxFileError(
      file,
      `not an xlsx workbook: the part of sheet ${JSON.stringify(sheet.name)} is missing`,
    );
  return { sheetPart, sheetName: sheet.name, date1904 };
}

/** The relationship id attribute under whatever prefix the writer bound its namespace to. */
function relId(tag: { attributes: Record<string, unknown> }): string | undefined {
  for (const [key, value] of Object.entries(tag.attributes))
    if (key.endsWith(':id') && typeof value === 'string') return value;
  return undefined;
}

async function relationships(zip: ZipParts, part: string, caps: PartCaps): Promise<Map<string, string>> {
  const targets = new Map<string, string>();
  const text = await zip.text(part, caps);
  if (!text) return targets;
  await parsePart(text, caps.maxBytes, {
    open(tag) {
      if (localName(tag) !== 'Relationship') return;
      const id = attribute(tag, 'Id');
      const target = attribute(tag, 'Target');
      if (id !== undefined && target !== undefined) targets.set(id, target);
    },
  });
  return targets;
}

/** A relationship target: relative to the folder of the part that names it, or absolute. */
function partPath(folder: string, target: string): string {
  return target.startsWith('/') ? target.slice(1) : posix.normalize(posix.join(folder, target));
}

/** Built-in number formats that show a date (ECMA-376 18.8.30, and the East Asian ones). */
const BUILT_IN_DATES = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54,
  55, 56, 57, 58,
]);

/**
 * Whether a custom format code shows a date: a day or year token, or a month without hours or
 * seconds (then `m` is a month, not minutes), once quoted text, escapes and [colour]/[$-locale]
 * sections are removed.
 */
export function isDateFormat(code: string): boolean {
  const bare = code.replace(/"[^"]*"|\\.|\[[^\]]*\]|_.|\*./g, '').toLowerCase();
  if (/[dy]/.test(bare)) return true;
  return /m/.test(bare) && !/[hs]/.test(bare);
}

async function dateStyles(zip: ZipParts, caps: PartCaps): Promise<Set<number>> {
  const styles = new Set<number>();
  const text = await zip.text('xl/styles.xml', caps);
  if (!text) return styles;
  const customDates = new Set<number>();
  let inCellXfs = false;
  let index = 0;
  await parsePart(text, caps.maxBytes, {
    open(tag) {
      const name = localName(tag);
      if (name === 'numFmt' && isDateFormat(attribute(tag, 'formatCode') ?? ''))
        customDates.add(Number(attribute(tag, 'numFmtId')));
      else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) {
        const format = Number(attribute(tag, 'numFmtId') ?? 0);
        if (BUILT_IN_DATES.has(format) || customDates.has(format)) styles.add(index);
        index++;
      }
    },
    close(tag) {
      if (localName(tag) === 'cellXfs') inCellXfs = false;
    },
  });
  return styles;
}

/**
 * Each shared string's text: its runs joined, phonetic guides (`rPh`) left out. The part is held
 * whole, so its inflated size is capped by maxSharedStringsBytes (XlsxCapError): what it holds
 * in memory is at most a few times that.
 */
async function sharedStrings(zip: ZipParts, caps: PartCaps): Promise<string[]> {
  const strings: string[] = [];
  const text = await zip.text(SHARED_STRINGS, caps);
  if (!text) return strings;
  let current: string[] | undefined;
  let inText = false;
  let phonetic = 0;
  await parsePart(text, caps.maxBytes, {
    open(tag) {
      const name = localName(tag);
      if (name === 'si') current = [];
      else if (name === 'rPh') phonetic++;
      else if (name === 't' && phonetic === 0) inText = true;
    },
    text(value) {
      if (inText) current?.push(value);
    },
    close(tag) {
      const name = localName(tag);
      if (name === 't') inText = false;
      else if (name === 'rPh') phonetic--;
      else if (name === 'si') {
        strings.push(unescapeXstring((current ?? []).join('')));
        current = undefined;
      }
    },
  });
  return strings;
}
