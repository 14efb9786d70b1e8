import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';

/** Where Debian's `chromium` package puts the browser, and the PATH as a fallback. */
const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

const executable = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/**
 * The Chromium to drive: CHROMIUM_PATH when set (an error when it names no executable: a setting
 * that is wrong is not a missing browser), else Debian's, else one on the PATH; undefined when none.
 */
export function chromiumPath(): string | undefined {
  const explicit = process.env.CHROMIUM_PATH;
  if (explicit) {
    if (!executable(explicit)) throw new Error(`CHROMIUM_PATH=${explicit} is not an executable file`);
    return explicit;
  }
  const onPath = (process.env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .flatMap((dir) => [join(dir, 'chromium'), join(dir, 'chromium-browser')]);
  return [...CANDIDATES, ...onPath].find(executable);
}

/** Why the browser tests cannot run here, or undefined when they can. */
export function whyChromiumCannotRun(): string | undefined {
  return chromiumPath() === undefined
    ? "no chromium found (install Debian's package: apt-get install -y chromium, or set CHROMIUM_PATH)"
    : undefined;
}

/** The Chromium of chromiumPath(), headless; an error when there is none (run.ts skips before that). */
export function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error('no chromium (test/browser/run.ts should have skipped)');
  // As root (CI containers) Chromium's own sandbox cannot start; the pages here are our own.
  return chromium.launch({ executablePath, args: ['--no-sandbox'] });
}
