import * as z from 'zod';
import { ConfigError } from './errors.js';

/**
 * What a run's report folder holds besides summary.json: `csv` (the default) outcomes.csv and
 * outcomes.ndjson only, as scripts read them; `excel` also outcomes.xlsx; `excel-csv` also
 * outcomes.excel.csv, a CSV as German Excel opens it (src/report-files/excel-csv.ts).
 */
export const REPORT_FORMATS = ['csv', 'excel', 'excel-csv'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** A feed's `report:` key: `report: { format: excel }`. */
export const ReportSettings = z.strictObject({ format: z.enum(REPORT_FORMATS).default('csv') });

export const REPORT_FORMAT_ENV = 'ERP_BRIDGE_REPORT_FORMAT';

function checked(value: string, key: string): ReportFormat {
  if ((REPORT_FORMATS as readonly string[]).includes(value)) return value as ReportFormat;
  throw new ConfigError('invalid report format', [
    `${key}: expected one of ${REPORT_FORMATS.join(', ')} (got "${value}")`,
  ]);
}

/**
 * The report format that overrides every feed's `report.format`: the flag, else the environment
 * variable (an empty one counts as unset); undefined when neither is given. A wrong value is a
 * ConfigError naming the flag or variable and the allowed values.
 */
export function reportFormatOverride(
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
): ReportFormat | undefined {
  if (flag !== undefined) return checked(flag, '--report-format');
  const fromEnv = env[REPORT_FORMAT_ENV];
  return fromEnv ? checked(fromEnv, REPORT_FORMAT_ENV) : undefined;
}
