import type { FieldType } from './field-spec.js';
import { type DecimalSeparator, parseAmount } from './values/amount.js';
import { type DateFormat, parseDate } from './values/date.js';
import { failed, type Parsed, parsed } from './values/result.js';

export interface CellFormats {
  decimalSeparator: DecimalSeparator;
  dateFormat: DateFormat;
}

/** What a converted cell carries: the JSON value to send and, for amounts, the exact decimal text. */
export interface Converted {
  value: string | number | boolean;
  decimal?: string;
  /** A join of several columns: its non-empty parts, for identities that ignore the separator. */
  parts?: readonly string[];
}

const TRUE = new Set(['true', 'yes', 'y', 'ja', 'j', '1', 'x', 'wahr']);
const FALSE = new Set(['false', 'no', 'n', 'nein', '0', 'falsch']);

/** Converts one non-empty cell to the field's type, or says what was expected. */
export function convertCell(type: FieldType, text: string, formats: CellFormats): Parsed<Converted> {
  switch (type) {
    case 'string':
      return parsed({ value: text });
    case 'date': {
      const date = parseDate(text, formats.dateFormat);
      return date.ok ? parsed({ value: date.value }) : date;
    }
    case 'amount':
      // An Amount is a Converted as it is (value and decimal): passed on without a copy.
      return parseAmount(text, formats.decimalSeparator);
    case 'integer': {
      const trimmed = text.trim();
      const value = Number(trimmed);
      return /^-?\d+$/.test(trimmed) && Number.isSafeInteger(value)
        ? parsed({ value })
        : failed(`"${text}" is not an integer id`);
    }
    case 'boolean': {
      const key = text.trim().toLowerCase();
      if (TRUE.has(key)) return parsed({ value: true });
      if (FALSE.has(key)) return parsed({ value: false });
      return failed(`"${text}" is not a yes/no value (expected true/false, yes/no, ja/nein, 1/0)`);
    }
  }
}
