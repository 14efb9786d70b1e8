import { crc32, deflateRawSync } from 'node:zlib';

/**
 * Small xlsx workbooks written from XML in the tests themselves (no binary fixtures): a zip
 * archive (deflated entries, central directory) of the parts a reader needs.
 */
export function zipOf(parts: Record<string, string | Buffer>): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(parts)) {
    const data = Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8');
    const packed = deflateRawSync(data);
    const nameBytes = Buffer.from(name, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(0x0800, 8);
    header.writeUInt16LE(8, 10);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(packed.length, 20);
    header.writeUInt32LE(data.length, 24);
    header.writeUInt16LE(nameBytes.length, 28);
    header.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, packed);
    central.push(header, nameBytes);
    offset += local.length + nameBytes.length + packed.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(parts).length, 8);
  end.writeUInt16LE(Object.keys(parts).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const esc = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export interface WorkbookSpec {
  /** Each sheet's name and the XML inside its <sheetData>. */
  sheets: { name: string; rows: string }[];
  sharedStrings?: string[];
  /** Number format ids of the cell styles, by style index (`s`); 14 is a date. */
  cellFormats?: number[];
  /** Custom number formats by id (164 and up). */
  numFmts?: Record<number, string>;
  date1904?: boolean;
}

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** The parts of an xlsx workbook as Excel writes them (one part per sheet, shared strings, styles). */
export function xlsxOf(spec: WorkbookSpec): Buffer {
  const parts: Record<string, string> = {
    '[Content_Types].xml':
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
    'xl/workbook.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="${MAIN}" xmlns:r="${REL}"><workbookPr${spec.date1904 ? ' date1904="1"' : ''}/><sheets>${spec.sheets
      .map((s, i) => `<sheet name="${esc(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
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
    parts[`xl/worksheets/sheet${i + 1}.xml`] =
      `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${MAIN}"><sheetData>${s.rows}</sheetData></worksheet>`;
  });
  return zipOf(parts);
}

/** A row of inline-string and number cells: strings become inlineStr, `{n: '1.5'}` numbers, `{d: 45000}` date-styled (style 1). */
export function rowOf(r: number, cells: (string | { n: string } | { d: number } | null)[]): string {
  const xml = cells
    .map((cell, i) => {
      const ref = `${String.fromCharCode(65 + i)}${r}`;
      if (cell === null) return '';
      if (typeof cell === 'string') return `<c r="${ref}" t="inlineStr"><is><t>${esc(cell)}</t></is></c>`;
      if ('n' in cell) return `<c r="${ref}"><v>${cell.n}</v></c>`;
      return `<c r="${ref}" s="1"><v>${cell.d}</v></c>`;
    })
    .join('');
  return `<row r="${r}">${xml}</row>`;
}
