import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';

/** What a zip's headers say of one entry: its name, CRC-32 and sizes, where its local header is. */
export interface ZipEntry {
  name: Buffer;
  crc: number;
  packed: number;
  size: number;
  offset: number;
  /** Written as a stream: CRC and sizes follow the data (a data descriptor), not the local header. */
  streamed?: boolean;
}

/** General-purpose flag bit 3: the entry has a data descriptor. */
const DESCRIPTOR_FLAG = 0x0008;
const UTF8_NAMES = 0x0800;

/** The local header before an entry's data; a streamed entry's CRC and sizes come after it. */
export function localHeader(entry: ZipEntry): Buffer {
  const streamed = entry.streamed === true;
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(UTF8_NAMES | (streamed ? DESCRIPTOR_FLAG : 0), 6);
  local.writeUInt16LE(8, 8); // deflate
  if (!streamed) {
    local.writeUInt32LE(entry.crc, 14);
    local.writeUInt32LE(entry.packed, 18);
    local.writeUInt32LE(entry.size, 22);
  }
  local.writeUInt16LE(entry.name.length, 26);
  return Buffer.concat([local, entry.name]);
}

/** The data descriptor after a streamed entry's data. */
export function dataDescriptor(entry: ZipEntry): Buffer {
  const descriptor = Buffer.alloc(16);
  descriptor.writeUInt32LE(0x08074b50, 0);
  descriptor.writeUInt32LE(entry.crc, 4);
  descriptor.writeUInt32LE(entry.packed, 8);
  descriptor.writeUInt32LE(entry.size, 12);
  return descriptor;
}

/** The central directory, written at `at` (where the last entry ends), and its end record. */
export function centralDirectory(entries: readonly ZipEntry[], at: number): Buffer {
  const central: Buffer[] = [];
  for (const entry of entries) {
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(UTF8_NAMES | (entry.streamed ? DESCRIPTOR_FLAG : 0), 8);
    header.writeUInt16LE(8, 10);
    header.writeUInt32LE(entry.crc, 16);
    header.writeUInt32LE(entry.packed, 20);
    header.writeUInt32LE(entry.size, 24);
    header.writeUInt16LE(entry.name.length, 28);
    header.writeUInt32LE(entry.offset, 42);
    central.push(header, entry.name);
  }
  const directory = Buffer.concat(central);
  const record = Buffer.alloc(22);
  record.writeUInt32LE(0x06054b50, 0);
  record.writeUInt16LE(entries.length, 8);
  record.writeUInt16LE(entries.length, 10);
  record.writeUInt32LE(directory.length, 12);
  record.writeUInt32LE(at, 16);
  return Buffer.concat([directory, record]);
}

/** One part deflated whole, as an entry at `offset`: its local header and data, and what the directory says of it. */
export function deflatedEntry(
  name: string,
  content: string | Buffer,
  offset: number,
): { entry: ZipEntry; bytes: Buffer } {
  const data = Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8');
  const packed = deflateRawSync(data);
  const entry = {
    name: Buffer.from(name, 'utf8'),
    crc: crc32(data),
    packed: packed.length,
    size: data.length,
    offset,
  };
  return { entry, bytes: Buffer.concat([localHeader(entry), packed]) };
}

/**
 * Small xlsx workbooks written from XML in the tests themselves (no binary fixtures): a zip
 * archive (deflated entries, central directory) of the parts a reader needs.
 */
export function zipOf(parts: Record<string, string | Buffer>): Buffer {
  const written: Buffer[] = [];
  const entries: ZipEntry[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(parts)) {
    const { entry, bytes } = deflatedEntry(name, content, offset);
    written.push(bytes);
    entries.push(entry);
    offset += bytes.length;
  }
  return Buffer.concat([...written, centralDirectory(entries, offset)]);
}

const esc = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export interface WorkbookSpec {
  /** Each sheet's name, the XML inside its <sheetData>, and whether Excel hides its tab. */
  sheets: { name: string; rows: string; state?: 'hidden' | 'veryHidden' }[];
  sharedStrings?: string[];
  /** Number format ids of the cell styles, by style index (`s`); 14 is a date. */
  cellFormats?: number[];
  /** Custom number formats by id (164 and up). */
  numFmts?: Record<number, string>;
  date1904?: boolean;
}

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** The XML of a sheet part around its rows. */
export const sheetXml = {
  open: `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${MAIN}"><sheetData>`,
  close: '</sheetData></worksheet>',
};

/** An xlsx workbook as Excel writes it (one part per sheet, shared strings, styles). */
export function xlsxOf(spec: WorkbookSpec): Buffer {
  return zipOf(xlsxParts(spec));
}

/** The parts of an xlsx workbook by name (the zip's entries), each sheet's holding its rows. */
export function xlsxParts(spec: WorkbookSpec): Record<string, string> {
  const parts: Record<string, string> = {
    '[Content_Types].xml':
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
    'xl/workbook.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="${MAIN}" xmlns:r="${REL}"><workbookPr${spec.date1904 ? ' date1904="1"' : ''}/><sheets>${spec.sheets
      .map(
        (s, i) =>
          `<sheet name="${esc(s.name)}" sheetId="${i + 1}"${s.state ? ` state="${s.state}"` : ''} r:id="rId${i + 1}"/>`,
      )
      .join('')}</sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${spec.sheets
      .map(
        (_, i) =>
          `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
      )
      .join('')}</Relationships>`,
    'xl/styles.xml': `<?xml version="1.0" encoding="UTF-8"?><styleSheet xmlns="${MAIN}"><numFmts>${Object.entries(
      spec.numFmts ?? {},
    )
      .map(([id, code]) => `<numFmt numFmtId="${id}" formatCode="${esc(code)}"/>`)
      .join('')}</numFmts><cellStyleXfs><xf numFmtId="14"/></cellStyleXfs><cellXfs>${(spec.cellFormats ?? [0])
      .map((id) => `<xf numFmtId="${id}" fontId="0"/>`)
      .join('')}</cellXfs></styleSheet>`,
  };
  if (spec.sharedStrings)
    parts['xl/sharedStrings.xml'] =
      `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${MAIN}">${spec.sharedStrings
        .map((s) => `<si><t xml:space="preserve">${esc(s)}</t></si>`)
        .join('')}</sst>`;
  spec.sheets.forEach((s, i) => {
    parts[`xl/worksheets/sheet${i + 1}.xml`] = `${sheetXml.open}${s.rows}${sheetXml.close}`;
  });
  return parts;
}

/**
 * A row of inline-string and number cells: strings become inlineStr, `{n: '1.5'}` numbers, `{d: 45000}`
 * date-styled (style 1), `{s: 3}` the shared string at that index.
 */
export function rowOf(
  r: number,
  cells: (string | { n: string } | { d: number } | { s: number } | null)[],
): string {
  const xml = cells
    .map((cell, i) => {
      const ref = `${String.fromCharCode(65 + i)}${r}`;
      if (cell === null) return '';
      if (typeof cell === 'string') return `<c r="${ref}" t="inlineStr"><is><t>${esc(cell)}</t></is></c>`;
      if ('n' in cell) return `<c r="${ref}"><v>${cell.n}</v></c>`;
      if ('s' in cell) return `<c r="${ref}" t="s"><v>${cell.s}</v></c>`;
      return `<c r="${ref}" s="1"><v>${cell.d}</v></c>`;
    })
    .join('');
  return `<row r="${r}">${xml}</row>`;
}

/** A part's content as pieces, so a part of gigabytes is never held: generated as it is deflated. */
export type PartPieces = Iterable<string>;

/**
 * Writes a zip archive to `path` a piece at a time: each entry deflated as a stream, its CRC and
 * sizes in a data descriptor after it and in the central directory (as streaming writers do).
 * For hostile workbooks far larger inflated than any test may hold.
 */
export async function writeZipStreamed(
  path: string,
  parts: Record<string, string | PartPieces>,
): Promise<void> {
  const out = createWriteStream(path);
  const written = (bytes: Buffer) =>
    new Promise<void>((resolve, reject) => out.write(bytes, (error) => (error ? reject(error) : resolve())));
  const entries: ZipEntry[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(parts)) {
    const entry: ZipEntry = {
      name: Buffer.from(name, 'utf8'),
      crc: 0,
      packed: 0,
      size: 0,
      offset,
      streamed: true,
    };
    const header = localHeader(entry);
    await written(header);
    const deflate = createDeflateRaw({ level: 9 });
    const packedDone = (async () => {
      for await (const chunk of deflate) {
        entry.packed += (chunk as Buffer).length;
        await written(chunk as Buffer);
      }
    })();
    for (const piece of typeof content === 'string' ? [content] : content) {
      const bytes = Buffer.from(piece, 'utf8');
      entry.crc = crc32(bytes, entry.crc);
      entry.size += bytes.length;
      if (!deflate.write(bytes)) await once(deflate, 'drain');
    }
    deflate.end();
    await packedDone;
    await written(dataDescriptor(entry));
    offset += header.length + entry.packed + 16;
    entries.push(entry);
  }
  await written(centralDirectory(entries, offset));
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
}

/** `count` copies of `piece`, in pieces of about 64 KiB. */
export function* repeated(piece: string, count: number): Generator<string> {
  const perChunk = Math.max(1, Math.floor(65536 / piece.length));
  const chunk = piece.repeat(perChunk);
  let left = count;
  for (; left >= perChunk; left -= perChunk) yield chunk;
  if (left > 0) yield piece.repeat(left);
}

/**
 * Writes a workbook of `rows` bank bookings (a header, then dates, numbers and a text of 16 hex
 * digits each, from the row's hash: barely compressible, so the file grows with its rows, about
 * 20 bytes a row) a row at a time.
 */
export async function writeBookingsWorkbook(path: string, rows: number): Promise<void> {
  const parts: Record<string, string | PartPieces> = xlsxParts({ sheets: [{ name: 'Umsätze', rows: '' }] });
  parts['xl/worksheets/sheet1.xml'] = (function* () {
    yield sheetXml.open;
    yield rowOf(1, ['Buchungstag', 'Betrag', 'Verwendungszweck']);
    for (let r = 2; r <= rows + 1; r++) {
      const hash = createHash('sha256').update(String(r)).digest('hex').slice(0, 16);
      yield rowOf(r, [
        `${String((r % 28) + 1).padStart(2, '0')}.03.2026`,
        { n: `-${r}.5` },
        `Rechnung ${hash}`,
      ]);
    }
    yield sheetXml.close;
  })();
  await writeZipStreamed(path, parts);
}
