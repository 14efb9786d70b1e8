import { camtMessage } from '../sources/formats/camt-message.js';
import type { SourceFormatName } from '../sources/formats/registry.js';
import { type Inferred, sure } from './inferred.js';

/** The formats init tells apart by content: every format erp-bridge reads. */
export type DetectedFormat = Extract<SourceFormatName, 'csv' | 'jsonl' | 'mt940' | 'camt' | 'datev' | 'xlsx'>;

export type Detection = { ok: true; format: Inferred<DetectedFormat> } | { ok: false; problem: string };

const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const WORKBOOK_PART = 'xl/workbook.xml';

/** The Document's namespace (camt.052/053/054 of any version) or a message element of camt. */
const CAMT_NAMESPACE =
  /xmlns(?::\w+)?\s*=\s*["'](urn:iso:std:iso:20022:tech:xsd:camt\.05[234]\.001\.\d\d)["']/;
const CAMT_ROOT = /<(?:[\w-]+:)?(BkToCstmrStmt|BkToCstmrAcctRpt|BkToCstmrDbtCdtNtfctn)[\s>]/;

/** A field tag at a line's start, after SWIFT blocks (`{1:…}{2:…}{4:`) or SOH framing when there are. */
const mtTag = (tag: string) => new RegExp(`^\\x01?(?:\\{[1-3]:[^}]*\\})*(?:\\{4:)?:${tag}:`, 'm');

/** SWIFT blocks before the text block (`{1:…}{2:…}{4:`), on a line of their own or before the first field. */
const BLOCKS = /^(?:\{[1-3]:[^}]*\})*(?:\{4:)?/;
/** Framing lines banks put before a message (as mt940-reader.ts skips them): BIC, message type, `:940:`. */
const FRAMING_LINE = /^(?:[A-Z]{6}[A-Z0-9]{2}(?:[A-Z0-9]{3})?|:?94[02]:?)?$/;
/** SWIFT's SOH (0x01) and ETX (0x03) around a message, as mt940-reader.ts leaves them out. */
const CONTROL = new RegExp(`[${String.fromCharCode(1)}${String.fromCharCode(3)}]`, 'g');

/** A statement file is fields from its first line on, SWIFT blocks and framing lines aside. */
function firstLineIsTag(text: string): boolean {
  for (const raw of text.split(/\r\n|\r|\n/, 20)) {
    const line = raw.replace(CONTROL, '').trim().replace(BLOCKS, '');
    if (FRAMING_LINE.test(line)) continue;
    return /^:\d{2}[A-Z]?:/.test(line);
  }
  return false;
}

/** DATEV's meta header: line 1 starts with its marker, quoted or not (EXTF by others, DTVF by DATEV). */
const DATEV_MARKER = /^"?(EXTF|DTVF)"?;/;

/**
 * The format of an export from its first bytes, never from its name: a zip holding
 * `xl/workbook.xml` is a workbook, XML with a camt namespace or message camt, a meta header
 * `EXTF;` DATEV, `:20:` with `:25:`/`:61:` MT940/MT942, lines of JSON objects JSON Lines, and any
 * other text delimited (the CSV inference says whether it is a table). `text` is the sample
 * decoded (bytes of no known encoding as ISO-8859-1: the markup and tags are ASCII).
 */
export function detectFormat(bytes: Buffer, text: string, complete: boolean): Detection {
  if (bytes.subarray(0, 4).equals(ZIP)) {
    if (bytes.includes(WORKBOOK_PART))
      return { ok: true, format: sure('xlsx', `a zip archive holding ${WORKBOOK_PART}: an Excel workbook`) };
    // A zip's parts may come in any order (a large image before the workbook): past the sample,
    // the xlsx reader reads the archive's index at its end and says whether it is a workbook.
    if (!complete)
      return {
        ok: true,
        format: sure(
          'xlsx',
          `a zip archive, ${WORKBOOK_PART} past the first bytes: read as an Excel workbook`,
        ),
      };
    return {
      ok: false,
      problem: `a zip archive without ${WORKBOOK_PART}: no xlsx workbook (an .xls, .ods or other archive is not read; save the sheet as xlsx or CSV)`,
    };
  }
  const head = text.trimStart();
  if (head.startsWith('<')) {
    const namespace = CAMT_NAMESPACE.exec(head)?.[1];
    const message = namespace ? camtMessage(namespace) : undefined;
    if (message)
      return { ok: true, format: sure('camt', `XML of the ${message.name} namespace: a camt message`) };
    const root = CAMT_ROOT.exec(head)?.[1];
    if (root)
      return {
        ok: true,
        format: sure(
          'camt',
          `XML with the camt message element ${root}${namespace ? ` (namespace ${namespace})` : ''}`,
        ),
      };
    return {
      ok: false,
      problem: 'XML that is no camt.052/053/054 message: erp-bridge reads no other XML',
    };
  }
  const marker = DATEV_MARKER.exec(head)?.[1];
  if (marker)
    return {
      ok: true,
      format: sure('datev', `line 1 starts with DATEV's meta header marker ${marker}: a DATEV export`),
    };
  if (firstLineIsTag(head) && ['20', '25', '61'].some((tag) => mtTag(tag).test(head)))
    return {
      ok: true,
      format: sure(
        'mt940',
        `lines of SWIFT fields (${['20', '25', '61']
          .filter((tag) => mtTag(tag).test(head))
          .map((tag) => `:${tag}:`)
          .join(', ')}): an MT940/MT942 statement`,
      ),
    };
  const objects = jsonObjectLines(head, complete);
  if (objects > 0)
    return {
      ok: true,
      format: sure('jsonl', `each of the ${objects} sampled lines is a JSON object: JSON Lines`),
    };
  return { ok: true, format: sure('csv', 'text that is none of JSON Lines, MT940, camt or DATEV') };
}

/** How many lines are JSON objects when every non-blank line is one (the cap's cut line aside); else 0. */
function jsonObjectLines(text: string, complete: boolean): number {
  if (!text.startsWith('{')) return 0;
  const lines = text.split(/\r\n|\r|\n/).filter((line) => line.trim() !== '');
  // The last line of a cut sample may be cut too.
  const whole = complete ? lines : lines.slice(0, -1);
  for (const line of whole) {
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return 0;
    } catch {
      return 0;
    }
  }
  return whole.length;
}
