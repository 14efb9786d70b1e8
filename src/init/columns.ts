/** One column of the sample: its header name, position and the trimmed cells of the data rows. */
export interface Column {
  name: string;
  /** 1-based, as a mapping's `{column: 3}` counts. */
  position: number;
  cells: readonly string[];
  /** The non-empty cells. */
  values: readonly string[];
}

export function columnsOf(header: readonly string[], rows: readonly (readonly string[])[]): Column[] {
  return header.map((name, i) => {
    const cells = rows.map((row) => (row[i] ?? '').trim());
    return { name: name.trim(), position: i + 1, cells, values: cells.filter((c) => c !== '') };
  });
}

/**
 * How a mapping names the column: by its name, or by position when the name is empty or
 * repeated (a name found twice would read the first one).
 */
export function columnRefOf(column: Column, all: readonly Column[]): string | number {
  const twice = all.filter((c) => c.name === column.name).length > 1;
  return column.name === '' || twice ? column.position : column.name;
}

/** The mapping that reads the column as it is. */
export function refOf(column: Column, all: readonly Column[]): string | { column: number } {
  const ref = columnRefOf(column, all);
  return typeof ref === 'number' ? { column: ref } : ref;
}
