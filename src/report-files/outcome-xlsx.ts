import type { RecordOutcome } from '../sync/outcome.js';
import { EXCEL_MAX_DATA_ROWS, type XlsxColumn, XlsxWriter } from './xlsx-writer.js';

/**
 * The columns of outcomes.xlsx: those of outcomes.csv (OUTCOME_COLUMNS), in that order. Only the
 * line and the amount are numbers; every ID (externalId, serviceId, key) is text, so Excel shows
 * its digits, never 1.2E+15.
 */
export const OUTCOME_XLSX_COLUMNS: readonly XlsxColumn[] = [
  { name: 'file', type: 'text', width: 30 },
  { name: 'line', type: 'number', width: 8 },
  { name: 'externalId', type: 'text', width: 20 },
  { name: 'outcome', type: 'text', width: 10 },
  { name: 'serviceId', type: 'text', width: 12 },
  { name: 'code', type: 'text', width: 22 },
  { name: 'message', type: 'text', width: 60 },
  { name: 'amount', type: 'number', width: 14 },
  { name: 'runId', type: 'text', width: 40 },
  { name: 'key', type: 'text', width: 20 },
];

/** Writes the outcomes, in the order given, as a workbook at `path`; a new sheet every `maxRows`. */
export async function writeOutcomesXlsx(
  path: string,
  outcomes: AsyncIterable<RecordOutcome>,
  runId: string,
  maxRows = EXCEL_MAX_DATA_ROWS,
): Promise<void> {
  const writer = new XlsxWriter(path, OUTCOME_XLSX_COLUMNS, 'Outcomes', maxRows);
  for await (const o of outcomes)
    await writer.addRow([
      o.file,
      o.line,
      o.externalId,
      o.outcome,
      o.serviceId === undefined ? undefined : String(o.serviceId),
      o.code,
      o.message,
      o.amount,
      runId,
      o.key,
    ]);
  await writer.finish();
}
