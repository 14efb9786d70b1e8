import { type Html, html } from '../html.js';

/**
 * Every page's frame: a skip link to the content, the console's stylesheet, a way back. The empty
 * icon keeps browsers from asking for /favicon.ico, which neither server has (a 404 on each page).
 */
export function layout(title: string, body: Html): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title} · erp-bridge console</title>
<link rel="stylesheet" href="/console/style.css">
<link rel="icon" href="data:,">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header><p><a href="/console">erp-bridge console</a></p></header>
<main id="main">
<h1>${title}</h1>
${body}
</main>
</body>
</html>
`;
}

/** A state as a label with its colour class (and its word: colour is never the only sign). */
export const stateLabel = (state: string): Html =>
  html`<span class="state state-${state.replace(/[^a-z_]/g, '')}">${state.replace(/_/g, ' ')}</span>`;

/** A link to another page of the console with this query (values encoded, then escaped by html). */
export function href(path: string, query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** A time as it was written (UTC), readable: the file's value, no local time zone guessed. */
export const when = (iso: string | undefined): string =>
  iso ? iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC') : '';

/** The base name of a path: the folders of the machine that ran the sync say nothing useful. */
export const baseName = (path: string): string => path.split(/[\\/]/).pop() ?? path;

/**
 * Where the run wrote, without what must not be on a page: a URL's user, password, query and
 * fragment (a token can hide in each).
 */
export function targetText(target: string | undefined): string | undefined {
  if (target === undefined) return undefined;
  try {
    const url = new URL(target);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return target.includes('://') ? 'a service (address not shown)' : target;
  }
}
