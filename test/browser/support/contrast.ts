import type { Page } from 'playwright-core';
import * as z from 'zod';

/** A colour as Chromium computes it: 0-255 channels, alpha 0-1. */
export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

/** What the page says of one element carrying text: its colour and its ancestors' backgrounds. */
export interface TextSample {
  /** tag.classes "text" — for the failure message. */
  what: string;
  color: string;
  /** The computed font size in px. */
  fontSize: number;
  /** background-color of the element, then of each ancestor up to <html>. */
  backgrounds: string[];
}

/** Parses a computed colour, `rgb(r, g, b)` or `rgba(r, g, b, a)` (what getComputedStyle returns). */
export function parseColor(text: string): Rgba {
  const m = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:[,/\s]+([\d.]+))?\s*\)$/.exec(text.trim());
  if (!m) throw new Error(`not a computed rgb() colour: ${text}`);
  return { r: Number(m[1]), g: Number(m[2]), b: Number(m[3]), a: m[4] === undefined ? 1 : Number(m[4]) };
}

/** `top` painted over the opaque `under` (source-over). */
const over = (top: Rgba, under: Rgba): Rgba => ({
  r: top.r * top.a + under.r * (1 - top.a),
  g: top.g * top.a + under.g * (1 - top.a),
  b: top.b * top.a + under.b * (1 - top.a),
  a: 1,
});

/**
 * The opaque colour behind an element: its and its ancestors' backgrounds painted from the root
 * down over the canvas (white: the console asks for color-scheme light). An element with no
 * background of its own shows its parent's, and so on up.
 */
export function effectiveBackground(backgrounds: readonly string[]): Rgba {
  let colour: Rgba = { r: 255, g: 255, b: 255, a: 1 };
  for (const layer of [...backgrounds].reverse()) colour = over(parseColor(layer), colour);
  return colour;
}

/** WCAG 2 relative luminance. */
function luminance({ r, g, b }: Rgba): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG 2 contrast ratio of text `fg` (may be translucent) on the opaque `bg`, 1 to 21. */
export function contrastRatio(fg: Rgba, bg: Rgba): number {
  const [a, b] = [luminance(over(fg, bg)), luminance(bg)];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

// In the page (a string: this project's TypeScript has no DOM types outside src/embed/browser).
const SAMPLE_TEXT = `(() => {
  const samples = [];
  for (const el of document.body.querySelectorAll('*')) {
    if (el instanceof SVGElement) continue;
    const text = Array.from(el.childNodes)
      .filter((n) => n.nodeType === Node.TEXT_NODE)
      .map((n) => n.textContent).join('').trim();
    if (!text) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || box.right < 0 || box.bottom < 0) continue;
    const backgrounds = [];
    for (let at = el; at; at = at.parentElement) backgrounds.push(getComputedStyle(at).backgroundColor);
    const classes = el.classList.length ? '.' + Array.from(el.classList).join('.') : '';
    samples.push({
      what: el.tagName.toLowerCase() + classes + ' "' + text.slice(0, 40) + '"',
      color: getComputedStyle(el).color,
      fontSize: Number.parseFloat(getComputedStyle(el).fontSize),
      backgrounds,
    });
  }
  return samples;
})()`;

const TextSamples = z.array(
  z.object({ what: z.string(), color: z.string(), fontSize: z.number(), backgrounds: z.array(z.string()) }),
);

/**
 * Every element of the page showing text of its own (a non-blank text node child) and laid out
 * on screen, with its computed colour and the background chain. The skip link (moved off screen
 * until focused) and SVG text (painted by fill, not by color) are left out.
 */
export async function textSamples(page: Page): Promise<TextSample[]> {
  return TextSamples.parse(await page.evaluate(SAMPLE_TEXT));
}

/** Each sample with its contrast ratio, rounded to two decimals (for readable failures). */
export const ratios = (samples: readonly TextSample[]) =>
  samples.map((s) => ({
    what: s.what,
    fontSize: s.fontSize,
    ratio: Math.round(contrastRatio(parseColor(s.color), effectiveBackground(s.backgrounds)) * 100) / 100,
  }));
