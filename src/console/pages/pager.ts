import { type Html, html } from '../html.js';
import { href } from './layout.js';

/**
 * Previous / next links that keep the rest of the query (search, filter, sort): plain links, so no
 * script and any keyboard works.
 */
export function pager(
  base: string,
  keep: Record<string, string | number | undefined>,
  at: { page: number; pageSize: number },
  matched: number,
): Html {
  const pages = Math.max(1, Math.ceil(matched / at.pageSize));
  const link = (page: number, label: string) => html`<a href="${href(base, { ...keep, page })}">${label}</a>`;
  return html`<nav class="pages" aria-label="Pages">
${at.page > 1 ? link(at.page - 1, 'Previous page') : ''}
<span>Page ${at.page} of ${pages}</span>
${at.page < pages ? link(at.page + 1, 'Next page') : ''}
</nav>`;
}
