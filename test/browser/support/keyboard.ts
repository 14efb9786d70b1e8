import type { Page } from 'playwright-core';
import * as z from 'zod';

/** Where one Tab press put the focus, and how the focus shows there. */
export interface FocusStop {
  /** `a "text"`, `input[name=q]`, `select[name=state]`, `button "Filter"`. */
  what: string;
  href: string | null;
  /** The outline's width in px (0 when none is drawn), style and colour; the box-shadow. */
  outlineWidth: number;
  outline: string;
  outlineColor: string;
  boxShadow: string;
  /** background-color of the parent, then of each ancestor (what the outline is drawn on). */
  around: string[];
}

// In the page (a string: this project's TypeScript has no DOM types outside src/embed/browser).
const FOCUSED = `(() => {
  const el = document.activeElement;
  if (!el || el === document.body || el === document.documentElement) return null;
  const style = getComputedStyle(el);
  const name = el.getAttribute('name');
  const label = (el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 60);
  const tag = el.tagName.toLowerCase();
  const around = [];
  for (let at = el.parentElement; at; at = at.parentElement) around.push(getComputedStyle(at).backgroundColor);
  return {
    what: name ? tag + '[name=' + name + ']' : tag + ' "' + label + '"',
    href: el.getAttribute('href'),
    outlineWidth: style.outlineStyle === 'none' ? 0 : Number.parseFloat(style.outlineWidth),
    outline: style.outlineStyle + ' ' + style.outlineWidth,
    outlineColor: style.outlineColor,
    boxShadow: style.boxShadow,
    around,
  };
})()`;

const Focused = z
  .object({
    what: z.string(),
    href: z.string().nullable(),
    outlineWidth: z.number(),
    outline: z.string(),
    outlineColor: z.string(),
    boxShadow: z.string(),
    around: z.array(z.string()),
  })
  .nullable();

/** The focused element as a FocusStop, or null when the focus left the page's elements. */
const focused = async (page: Page): Promise<FocusStop | null> => Focused.parse(await page.evaluate(FOCUSED));

/**
 * Presses Tab on a page just loaded (nothing focused yet: the path starts at the top) until the
 * focus leaves the page or comes back round, at most `max` times: the keyboard user's path through
 * the page, in order.
 */
export async function tabStops(page: Page, max = 120): Promise<FocusStop[]> {
  const stops: FocusStop[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const stop = await focused(page);
    if (!stop || (stops.length > 0 && stop.what === stops[0]?.what && stop.href === stops[0]?.href)) break;
    stops.push(stop);
  }
  return stops;
}

/** Presses Tab on a page just loaded until the focus is on a link whose href matches; that href. */
export async function tabTo(page: Page, href: RegExp, max = 120): Promise<string> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const stop = await focused(page);
    if (stop?.href && href.test(stop.href)) return stop.href;
  }
  throw new Error(`no link matching ${href} within ${max} Tab presses`);
}
