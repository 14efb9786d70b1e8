import { Readable } from 'node:stream';
import type { RecordKind } from '../kinds/registry.js';
import type { FieldMapping } from '../sources/field-mapping.js';
import { DATEV_CELLS, readDatev } from '../sources/formats/datev-reader.js';
import { DatevSource } from '../sources/formats/datev-source.js';
import type { RowFilter } from '../sources/row-filter.js';
import type { DecodedSample } from './encoding.js';
import type { FeedInference, FeedInferenceResult } from './feed-shape.js';
import { inferTable } from './infer-table.js';
import { ask, guess, type Inferred, quoted, sure } from './inferred.js';
import { cellsOf } from './row-cells.js';
import { type ExportSample, wholeLines } from './sample.js';
import { sampleRows, sampleSummary } from './sample-rows.js';
import { feedOfTable } from './table-feed.js';

const SAMPLE_FILE = 'sample';
/** The G/L account of a booking: the bank account's bookings are the cash movements. */
const ACCOUNT = 'Konto';
const TEXT = 'Buchungstext';

/**
 * A DATEV booking batch, read through the DATEV reader (its meta header checked, its added cells
 * `signedAmount`, `documentDate`, `currency`). The layout is DATEV's own: no delimiter, quote or
 * preamble to set. Its bookings are accounting entries, so which are cash movements is the
 * person's to say (the bank's G/L account): the amount's sign is from that account's view, a guess.
 */
export async function inferDatev(
  detected: FeedInference['format'],
  sample: ExportSample,
  decoded: DecodedSample,
  options: { kind?: RecordKind },
): Promise<FeedInferenceResult> {
  const reading = readDatev(
    SAMPLE_FILE,
    Readable.from([wholeLines(decoded.text, sample.complete)]),
    DatevSource.parse({ format: 'datev', path: SAMPLE_FILE }),
  );
  const read = await sampleRows(reading);
  const header = read.columns?.names;
  if (!header)
    return {
      ok: false,
      problem: `the DATEV reader refuses the export: ${read.stopped ?? 'no column names on line 2'}`,
    };
  if (read.stopped !== undefined && sample.complete && read.rows.length === 0)
    return { ok: false, problem: `the DATEV reader refuses the export: ${read.stopped}` };
  // The table's own columns only: the added cells are mapped below by what the reader makes them.
  const own = header.filter((name) => !(DATEV_CELLS as readonly string[]).includes(name));
  const cells = cellsOf(read.rows, header);
  const kindGiven = options.kind ?? 'transactions';
  // What the DATEV reader fills itself, for transactions; the table's own columns give the rest.
  const fixed: Record<string, Inferred<FieldMapping>> = kindGiven === 'transactions'
    ? {
        bookingDate: guess<FieldMapping>(
          'documentDate',
          "Belegdatum (DDMM) completed by the reader with the year of the meta header's range",
        ),
        amount: guess<FieldMapping>(
          'signedAmount',
          "Umsatz signed by Soll/Haben from the booking account's view: right when the bank account is the Konto of the bookings kept (check the sign on one booking)",
        ),
        currency: sure<FieldMapping>('currency', "WKZ Umsatz, else the batch's currency (meta header)"),
        ...(own.includes(TEXT) ? { purpose: guess<FieldMapping>(TEXT, 'the booking text') } : {}),
      }
    : {};
  const table = inferTable(
    { header: own, rows: cells.map((row) => row.slice(0, own.length)), preamble: [], delimiter: ';' },
    { kind: kindGiven, fixed },
  );
  const kind = table.kind.value;
  const accounts = [
    ...new Set(cells.map((row) => row[header.indexOf(ACCOUNT)] ?? '').filter((k) => k !== '')),
  ];
  const exclude: Inferred<RowFilter[]> | undefined =
    kind === 'transactions' && header.includes(ACCOUNT)
      ? ask(
          `a booking batch holds every booking; keep those on the bank's G/L account (Konto; SKR03 1200, SKR04 1800): choose it (${accounts.slice(0, 8).map(quoted).join(', ')} in the sample)`,
          accounts.slice(0, 8).map((account) => [{ column: ACCOUNT, matches: `^(?!${account}$)` }]),
        )
      : table.exclude;
  const inference = feedOfTable(
    {
      sample: sampleSummary(sample, read),
      format: detected,
      source: [['encoding', decoded.encoding]],
      notes: [
        'DATEV\'s layout is its own: ";", quoted cells, the meta header on line 1, the column names on line 2, a decimal comma; nothing of it to set',
        ...(read.problems.length > 0
          ? [
              `${read.problems.length} booking(s) of the sample do not read: ${read.problems[0]?.problem ?? ''}`,
            ]
          : []),
      ],
    },
    {
      ...table,
      kind: options.kind
        ? table.kind
        : guess<RecordKind>(
            'transactions',
            "a DATEV booking batch: its bookings on the bank's G/L account are the cash movements",
          ),
    },
  );
  return { ok: true, inference: { ...inference, ...(exclude ? { exclude } : {}) } };
}
