/** Every string value in a parsed YAML document (keys left out). */
export function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

const BRACED = /^\$\{([A-Za-z_]\w*)(?::?[-?+]|\})/;
const BARE = /^\$([A-Za-z_]\w*)/;

/** Variables Compose reads from the shell or .env (`${NAME…}`, `$NAME`; `$$` is a literal $). */
export function variablesIn(text: string): { names: string[]; invalid: boolean } {
  const plain = text.replaceAll('$$', '');
  const names: string[] = [];
  let invalid = false;
  for (let i = plain.indexOf('$'); i !== -1; i = plain.indexOf('$', i + 1)) {
    const name = (BRACED.exec(plain.slice(i)) ?? BARE.exec(plain.slice(i)))?.[1];
    if (name) names.push(name);
    else invalid = true; // Compose refuses the whole file ("invalid interpolation format")
  }
  return { names, invalid };
}
