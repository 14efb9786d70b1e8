import { Readable } from 'node:stream';
import { KINDS, type RecordKind } from '../kinds/registry.js';
import type { FieldMapping } from '../sources/field-mapping.js';
import { readCamt } from '../sources/formats/camt-reader.js';
import { CamtSource } from '../sources/formats/camt-source.js';
import { readMt940 } from '../sources/formats/mt940-reader.js';
import { Mt940Source } from '../sources/formats/mt940-source.js';
import { defaultMappingOf } from '../sources/formats/registry.js';
import type { FormatReading } from '../sources/formats/source-format.js';
import type { StatementTotals } from '../sources/formats/statement-totals.js';
import type { DecodedSample } from './encoding.js';
import type { FeedInference, FeedInferenceResult } from './feed-shape.js';
import { ask, guess, type Inferred, sure } from './inferred.js';
import type { ExportSample } from './sample.js';
import { sampleRows, sampleSummary } from './sample-rows.js';
import { accountNotes, seenAccounts } from './statement-accounts.js';

type StatementFormat = 'camt' | 'mt940';

const SAMPLE_FILE = 'sample';

function readingOf(format: StatementFormat, text: string): FormatReading {
  const stream = Readable.from([text]);
  return format === 'camt'
    ? readCamt(SAMPLE_FILE, stream, CamtSource.parse({ format, path: SAMPLE_FILE }))
    : readMt940(SAMPLE_FILE, stream, Mt940Source.parse({ format, path: SAMPLE_FILE }));
}

const PENDING: Record<StatementFormat, string> = {
  camt: 'entries not booked yet (status PDNG, INFO, FUTR) are left out until they come back booked',
  mt940: "an MT942 interim report's entries are not booked yet: left out until a statement books them",
};

/**
 * A bank statement (camt, MT940/MT942): read through the format's own reader. Its kind is
 * transactions and its mapping the format's default (so `mapping` stays empty); what the person
 * decides is the target bank account, from the statements' accounts the notes list.
 */
export async function inferStatement(
  format: StatementFormat,
  detected: FeedInference['format'],
  sample: ExportSample,
  decoded: DecodedSample,
  options: { kind?: RecordKind },
): Promise<FeedInferenceResult> {
  const reading = readingOf(format, decoded.text);
  const read = await sampleRows(reading);
  let statements: readonly StatementTotals[] = [];
  try {
    statements = reading.statements?.() ?? [];
  } catch {
    // A reading stopped mid-statement: the rows read say what the sample holds.
  }
  if (read.stopped !== undefined && sample.complete && read.rows.length === 0 && statements.length === 0)
    return { ok: false, problem: `the ${format} reader refuses the export: ${read.stopped}` };

  const defaults = defaultMappingOf(format, 'transactions');
  const idCell = defaults?.externalId;
  const pending = read.rows.filter((row) => row.leftOut !== undefined).length;
  const kind: Inferred<RecordKind> = options.kind
    ? sure(options.kind, 'given')
    : sure('transactions', 'a bank statement: its entries are transactions');
  const given = options.kind;
  const otherKind = given !== undefined && given !== 'transactions';
  const withRef =
    typeof idCell === 'string' ? read.rows.filter((r) => (r.cell(idCell) ?? '') !== '').length : 0;
  // The cap cuts the sample inside the file: the entry it ends in is no fault of the file.
  const problems = sample.complete ? read.problems : read.problems.slice(0, -1);
  const notes = [
    ...accountNotes(seenAccounts(statements, read.rows), statements.length),
    ...(sample.complete
      ? []
      : [
          `the sample is the first ${sample.bytes.length} bytes of the file: statements and accounts after them were not seen`,
        ]),
    ...(problems.length > 0
      ? [`${problems.length} entr(ies) of the sample do not read: ${problems[0]?.problem ?? ''}`]
      : []),
  ];
  return {
    ok: true,
    inference: {
      sample: sampleSummary(sample, read),
      format: detected,
      source: [
        ['encoding', decoded.encoding],
        [
          'includePending',
          guess(
            false,
            `the default: ${PENDING[format]}${pending > 0 ? ` (${pending} such entr(ies) in the sample)` : ''}; true reads them too`,
          ),
        ],
      ],
      kind,
      // The format's default mapping fills transactions; another kind's fields are the person's to map.
      mapping: otherKind
        ? Object.fromEntries(
            requiredOf(given).map((field) => [
              field,
              ask(`the ${format} default mapping fills transactions only: name the cell for ${field}`),
            ]),
          )
        : {},
      missing: otherKind ? requiredOf(given) : [],
      identity: {
        idColumns: [],
        derivedFrom: [],
        externalId:
          typeof idCell === 'string' && !otherKind
            ? // null with an empty mapping: the format's default mapping, its externalId included,
              // applies (the YAML writer then writes no mapping at all).
              sure<FieldMapping | null>(
                null,
                `the format's default mapping: the bank's reference (${idCell}), which ${withRef} of the ${read.rows.length} sampled entries carry; an entry without one gets the derived identity (docs/identity.md)`,
              )
            : ask<FieldMapping | null>(
                'choose the cell that identifies an entry, or none for the derived identity',
              ),
      },
      notes,
    },
  };
}

const requiredOf = (kind: RecordKind): string[] =>
  Object.entries(KINDS[kind].fields).flatMap(([field, spec]) =>
    spec.required && field !== 'externalId' ? [field] : [],
  );
