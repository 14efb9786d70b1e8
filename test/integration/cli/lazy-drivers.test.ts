import { describe, expect, it } from 'vitest';
import { modulesNamed, runNode, watchModules } from '../../support/cli-run.js';

/**
 * The database drivers (pg, pg-cursor, mysql2) are loaded by a database feed's first read, never
 * by a command that reads none, and a format's packages (saxes for XML, yauzl for workbooks) by a
 * feed of that format: every sync and worker start would pay for them (issue 30). The workbook
 * writer's zip package (yazl) loads only for `--report-format excel` (issue 31).
 */
async function syncLoading(...feeds: string[]): Promise<{ code: number | null; loaded: string[] }> {
  const watch = watchModules('^(pg|pg-cursor|mysql2|saxes|yauzl|yazl|yaml)(/|$)');
  const ran = await runNode(
    ['--import', 'tsx', ...watch.args, 'src/cli/main.ts', 'sync', '--sandbox', '--dry-run', ...feeds],
    watch.env,
  );
  return { code: ran.code, loaded: modulesNamed(ran.stderr) };
}

describe("drivers and readers' packages load only for a feed that reads with them", () => {
  it('a sync of a CSV feed loads none of them', async () => {
    const ran = await syncLoading('config/feeds/demo/sparkasse.yaml');
    expect(ran.code).toBe(0);
    // yaml (the feed loader's) is watched too: the watch sees what the command loads.
    expect(new Set(ran.loaded)).toEqual(new Set(['yaml']));
  });

  it('a workbook loads the zip and XML readers, a camt file the XML reader', async () => {
    const ran = await syncLoading('config/feeds/demo/xlsx.yaml', 'config/feeds/demo/camt.yaml');
    expect(ran.code).toBe(0);
    expect(new Set(ran.loaded)).toEqual(new Set(['yaml', 'saxes', 'yauzl']));
  });

  it('the workbook writer loads for --report-format excel only, not for excel-csv', async () => {
    const excel = await syncLoading('config/feeds/demo/sparkasse.yaml', '--report-format', 'excel');
    expect(excel.code).toBe(0);
    expect(new Set(excel.loaded)).toEqual(new Set(['yaml', 'yazl']));
    const excelCsv = await syncLoading('config/feeds/demo/sparkasse.yaml', '--report-format', 'excel-csv');
    expect(excelCsv.code).toBe(0);
    expect(new Set(excelCsv.loaded)).toEqual(new Set(['yaml']));
  });
});
