import { type Html, html } from '../html.js';
import { href } from './layout.js';

/** Previous / next links that keep the search: plain links, so no script and any keyboard works. */
export function pager(
  base: string,
  query: { q: string; page: number; pageSize: number },
  matched: number,
): Html {
  const pages = Math.max(1, Math.ceil(matched / query.pageSize));
  const link = (page: number, label: string) =>
    html`<a href="${href(base, { q: query.q, page })}">${label}</a>`;
  return html`<nav class="pages" aria-label="Pages">
${query.page > 1 ? link(query.page - 1, 'Previous page') : ''}
<span>Page ${query.page} of ${pages}</span>
${query.page < pages ? link(query.page + 1, 'Next page') : ''}
</nav>`;
}
