import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import type { AdminServer } from '../../../src/ops/admin-server.js';
import { adminServers } from '../../support/admin-server.js';
import { type ConsoleFleet, consoleFleet, seedConsoleFleet } from '../../support/console-fleet.js';
import { testRedis } from '../../support/redis.js';
import { launchChromium } from './chromium.js';

/** Where the pages' screenshots go: never into the repository. */
export const SCREENSHOTS = process.env.CONSOLE_SCREENSHOTS || join(tmpdir(), 'erp-bridge-console-shots');

// Runs in the page before its own markup: the browser also logs a CSP violation on the console,
// but the event names the directive, and it is the one signal a test cannot miss.
const REPORT_CSP = `document.addEventListener('securitypolicyviolation', (e) =>
  console.error('CSP violation: ' + e.violatedDirective + ' blocked ' + e.blockedURI));`;

/**
 * The console of a fleet in Chromium: a real Redis seeded as workers write it (seedConsoleFleet,
 * plus what `more` adds), the admin server with FleetConsoleSource on a free loopback port (fresh
 * per case), one browser for the file and a context per case. Every console message, page error,
 * CSP violation and request to another origin of a case is collected in `problems`, which must be
 * empty when the case ends: the pages run no script, so anything there is the browser refusing or
 * failing something.
 */
export function consoleWorld(more: (fleet: ConsoleFleet) => Promise<void> = async () => {}) {
  const redis = testRedis();
  const admin = adminServers(redis);
  const fleet = consoleFleet(admin.connection, admin.prefix);
  const w = { fleet, problems: [] as string[] } as {
    fleet: ConsoleFleet;
    server: AdminServer;
    browser: Browser;
    context: BrowserContext;
    problems: string[];
  };

  beforeAll(async () => {
    await seedConsoleFleet(fleet);
    await more(fleet);
    w.browser = await launchChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(async () => {
    await w.browser?.close();
    await redis.cleanup();
  });

  beforeEach(async () => {
    w.server = await admin.start({}, { consoleSource: fleet.source });
    w.problems = [];
    w.context = await w.browser.newContext({ viewport: { width: 1280, height: 800 } });
    await w.context.addInitScript(REPORT_CSP);
    w.context.on('console', (m) => w.problems.push(`console ${m.type()}: ${m.text()}`));
    w.context.on('weberror', (e) => w.problems.push(`page error: ${e.error().message}`));
    // Nothing but the console itself: no CDN, font or icon fetched from anywhere else.
    w.context.on('request', (r) => {
      if (!r.url().startsWith(`${w.server.url}/`) && !r.url().startsWith('data:'))
        w.problems.push(`request elsewhere: ${r.url()}`);
    });
  });
  afterEach(async () => {
    await w.context.close();
    expect(w.problems).toEqual([]);
  });

  /** Opens `path` of the console in a new page; it must answer 200. */
  async function open(path: string): Promise<Page> {
    const page = await w.context.newPage();
    const response = await page.goto(`${w.server.url}${path}`);
    expect(response?.status(), path).toBe(200);
    return page;
  }

  /** A full-page PNG of the page as `name`.png in SCREENSHOTS, for a look by eye. */
  const shoot = (page: Page, name: string) =>
    page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

  return Object.assign(w, { open, shoot });
}
