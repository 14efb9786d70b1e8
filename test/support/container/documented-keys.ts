/**
 * The configuration keys a Markdown page documents (docs/configuration.md): backticked UPPER_CASE names in the first column of
 * its Markdown tables. A variable that appears only in prose is not documented in this sense.
 */
export function documentedConfigKeys(markdown: string): Set<string> {
  const keys = new Set<string>();
  for (const line of markdown.split(/\r?\n/)) {
    const cells = /^\s*\|([^|]*)\|/.exec(line);
    if (!cells?.[1]) continue;
    for (const match of cells[1].matchAll(/`([A-Z][A-Z0-9_]*)`/g)) if (match[1]) keys.add(match[1]);
  }
  return keys;
}
