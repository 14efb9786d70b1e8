import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import { ConfigError } from '../config/errors.js';

/** The report folder is a setting: one that cannot be created or written is exit 2, before any file is read. */
export async function checkReportDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
  } catch (error) {
    throw new ConfigError(
      `--report-dir ${dir}: cannot create or write the report folder (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); choose another with --report-dir`,
    );
  }
}
