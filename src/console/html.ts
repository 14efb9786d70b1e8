/**
 * Markup built only through `html`: every interpolated value is escaped unless it is already Html
 * (made by `html` itself, or by `raw` for text the code wrote, never data). Pages interpolate
 * tenant data (names, messages, amounts read from files), so escaping is the default, not a duty.
 */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** Text made safe inside an element or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => ENTITIES[c] as string);
}

/** What a page may interpolate: arrays are joined, absent values write nothing. */
export type Interpolated =
  | Html
  | string
  | number
  | bigint
  | boolean
  | null
  | undefined
  | readonly Interpolated[];

function render(value: Interpolated): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Interpolated[]): Html {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? '');
  return new Html(out);
}

/** Marks markup the code itself wrote (a constant, an SVG path of numbers) as safe. Never data. */
export const raw = (text: string): Html => new Html(text);
