import { openText } from '../../src/sources/decode.js';
import { readCamt } from '../../src/sources/formats/camt-reader.js';
import { CAMT_CELLS } from '../../src/sources/formats/camt-row.js';
import { CamtSource } from '../../src/sources/formats/camt-source.js';

export interface CamtRowSeen {
  line: number;
  /** By cell name (CAMT_CELLS); '' for an empty cell. */
  cells: Record<string, string>;
  leftOut: string | undefined;
}

/** Every row and problem the camt reader makes of a file (a FileStopError is thrown). */
export async function camtRows(path: string, source: Partial<CamtSource> = {}) {
  const parsed = CamtSource.parse({ path: 'x', format: 'camt', ...source });
  const { batches, statements } = readCamt(path, openText(path, 'utf-8').text, parsed);
  const rows: CamtRowSeen[] = [];
  const problems: { line: number; problem: string }[] = [];
  for await (const batch of batches)
    for (const item of batch) {
      if (item.kind === 'problem') problems.push({ line: item.problem.line, problem: item.problem.problem });
      else {
        const { row } = item;
        const cells: Record<string, string> = Object.fromEntries(
          CAMT_CELLS.map((name) => [name, row.cell(name) ?? '']),
        );
        rows.push({ line: row.line, cells, leftOut: row.leftOut });
      }
    }
  return { rows, problems, statements: statements?.() ?? [] };
}
