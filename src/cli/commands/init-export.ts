import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { GivenLocation } from '../../init/location-flag.js';
import { readSample, type SampledExport } from '../../init/sample.js';
import { exportFile } from '../../sources/locations/export-file.js';
import { LocationError } from '../../sources/locations/location-error.js';
import { openLocation } from '../../sources/locations/open-location.js';
import { isRemote } from '../../sources/locations/source-keys.js';
import { EXIT, type ExitCode } from '../exit-codes.js';

/** What `use` gave, or why the export could not be read: the message and the exit code. */
export type ExportUse<T> = { ok: true; value: T } | { ok: false; message: string; exitCode: ExitCode };

const refused = (message: string, exitCode: ExitCode = EXIT.INVALID_CONFIG) =>
  ({ ok: false, message, exitCode }) as const;

/**
 * The sample of the export init was given, for `use` (which may read more of it: a workbook's
 * index is at its end), on the local disk or on `--location`. A remote location is opened with the
 * secrets of the variables it names (as sync does), and closed whatever `use` ends with; its
 * refusal is its own message and exit code (docs/locations.md), a missing file exit 2.
 */
export async function withExportSample<T>(
  exportPath: string,
  where: GivenLocation | undefined,
  use: (sample: SampledExport) => Promise<T>,
): Promise<ExportUse<T>> {
  if (where === undefined || !isRemote(where.config)) {
    let sample: SampledExport;
    try {
      // Said plainly before the location's messages, made for a listed file.
      const found = await stat(exportPath);
      if (!found.isFile()) return refused(`${exportPath}: not a file`);
      sample = await readSample(resolve(exportPath));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? 'no such file' : (code ?? (error as Error).message);
      return refused(`${exportPath}: cannot read the export (${why})`);
    }
    return { ok: true, value: await use(sample) };
  }
  if (where.config.type === 'sftp' && !exportPath.startsWith('/'))
    return refused(`${exportPath}: a path on an SFTP server must be absolute (starting with /)`);
  const location = openLocation(where.config, process.env);
  try {
    const found = await location.stat(exportPath);
    if (!found) return refused(`${exportPath}: no such file on ${location.label}`);
    return { ok: true, value: await use(await readSample(exportFile(location, exportPath))) };
  } catch (error) {
    if (error instanceof LocationError) return refused(error.message, error.exitCode);
    throw error;
  } finally {
    await location.close();
  }
}
