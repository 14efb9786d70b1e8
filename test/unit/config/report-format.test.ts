import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/errors.js';
import { ReportSettings, reportFormatOverride } from '../../../src/config/report-format.js';

describe('the report format setting', () => {
  it('takes the flag over the environment; neither leaves each feed its own', () => {
    expect(reportFormatOverride('excel', { ERP_BRIDGE_REPORT_FORMAT: 'excel-csv' })).toBe('excel');
    expect(reportFormatOverride(undefined, { ERP_BRIDGE_REPORT_FORMAT: 'excel-csv' })).toBe('excel-csv');
    // An empty variable counts as unset, as for every other variable.
    expect(reportFormatOverride(undefined, { ERP_BRIDGE_REPORT_FORMAT: '' })).toBeUndefined();
    expect(reportFormatOverride(undefined, {})).toBeUndefined();
  });

  it('refuses a wrong value as a ConfigError naming where it came from and the allowed values', () => {
    expect(() => reportFormatOverride('xlsx', {})).toThrow(ConfigError);
    expect(() => reportFormatOverride('xlsx', {})).toThrow(
      '--report-format: expected one of csv, excel, excel-csv (got "xlsx")',
    );
    expect(() => reportFormatOverride(undefined, { ERP_BRIDGE_REPORT_FORMAT: 'XLS' })).toThrow(
      'ERP_BRIDGE_REPORT_FORMAT: expected one of csv, excel, excel-csv (got "XLS")',
    );
  });

  it("a feed's report.format defaults to csv and knows only the three formats", () => {
    expect(ReportSettings.parse({})).toEqual({ format: 'csv' });
    expect(ReportSettings.parse({ format: 'excel' })).toEqual({ format: 'excel' });
    const wrong = ReportSettings.safeParse({ format: 'xlsx' });
    expect(wrong.success).toBe(false);
    expect(JSON.stringify(wrong.error?.issues)).toMatch(/csv.*excel.*excel-csv/);
    expect(ReportSettings.safeParse({ format: 'csv', sheet: 'x' }).success).toBe(false);
  });
});
