/**
 * A pino JSON line parsed, refusing a key written twice at its top level (JSON.parse keeps the last
 * silently, log shippers differ): a child logger's binding and a field of the call of the same
 * name are both written by pino. Tests that read logs through this catch such lines.
 */
export function parseLogLine(line: string): Record<string, unknown> {
  const keys = topLevelKeys(line);
  const twice = keys.filter((key, i) => keys.indexOf(key) !== i);
  if (twice.length > 0) throw new Error(`log line with the key(s) ${twice.join(', ')} twice: ${line}`);
  return JSON.parse(line) as Record<string, unknown>;
}

/** The keys of the outer object of a JSON text, in order, duplicates kept. */
export function topLevelKeys(json: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    else if (c === '"') {
      const start = i + 1;
      for (i = start; i < json.length && json[i] !== '"'; i++) if (json[i] === '\\') i++;
      let next = i + 1;
      while (json[next] === ' ') next++;
      if (depth === 1 && json[next] === ':') keys.push(JSON.parse(json.slice(start - 1, i + 1)) as string);
    }
  }
  return keys;
}
