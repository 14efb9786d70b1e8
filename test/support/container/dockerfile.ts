/**
 * Just enough of the Dockerfile grammar to check our own Dockerfile without a Docker engine:
 * line continuations, comments, `--flag=value` options and the JSON (exec) form. Heredocs and a
 * changed escape character are not supported; the checks report what they cannot read.
 */

export interface Instruction {
  /** Upper-cased keyword: FROM, COPY, RUN … */
  keyword: string;
  /** Leading `--name=value` options (COPY --from, HEALTHCHECK --interval …). */
  flags: Map<string, string>;
  /** What follows the flags, as written. */
  rest: string;
  /** The exec form's list when `rest` is a JSON array, else undefined (shell form). */
  exec?: string[];
  /** 1-based line where the instruction starts. */
  line: number;
}

export interface Stage {
  index: number;
  /** The base: an image reference or the name of an earlier stage. */
  from: string;
  name?: string;
  instructions: Instruction[];
}

/** Joins continuation lines and drops comment lines (also inside a continuation, as Docker does). */
function logicalLines(text: string): { text: string; line: number }[] {
  const out: { text: string; line: number }[] = [];
  let current: { text: string; line: number } | undefined;
  text.split(/\r?\n/).forEach((raw, i) => {
    const trimmed = raw.trim();
    if (trimmed.startsWith('#')) return;
    if (!current && trimmed === '') return;
    const continued = /\\\s*$/.test(raw);
    const piece = continued ? raw.replace(/\\\s*$/, '') : raw;
    current = current
      ? { ...current, text: `${current.text} ${piece.trim()}` }
      : { text: piece.trim(), line: i + 1 };
    if (!continued) {
      out.push(current);
      current = undefined;
    }
  });
  if (current) out.push(current);
  return out;
}

function parseExec(rest: string): string[] | undefined {
  if (!rest.startsWith('[')) return undefined;
  try {
    const parsed: unknown = JSON.parse(rest);
    return Array.isArray(parsed) && parsed.every((p) => typeof p === 'string') ? parsed : undefined;
  } catch {
    return undefined; // Docker, too, runs a malformed JSON array as a shell command
  }
}

function parseInstruction(text: string, line: number): Instruction {
  const [keyword = '', ...words] = text.split(/\s+/);
  const flags = new Map<string, string>();
  let i = 0;
  for (; i < words.length; i++) {
    const flag = /^--([a-z-]+)(?:=(.*))?$/.exec(words[i] ?? '');
    if (!flag?.[1]) break;
    flags.set(flag[1], flag[2] ?? 'true');
  }
  const rest = words.slice(i).join(' ');
  const exec = parseExec(rest);
  return { keyword: keyword.toUpperCase(), flags, rest, ...(exec ? { exec } : {}), line };
}

/** The build stages in order; instructions before the first FROM (ARG) are left out. */
export function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  for (const { text: lineText, line } of logicalLines(text)) {
    const instruction = parseInstruction(lineText, line);
    if (instruction.keyword === 'FROM') {
      const [from = '', as, name] = instruction.rest.split(/\s+/);
      stages.push({
        index: stages.length,
        from,
        ...(as?.toUpperCase() === 'AS' && name ? { name } : {}),
        instructions: [],
      });
    } else {
      stages.at(-1)?.instructions.push(instruction);
    }
  }
  return stages;
}

/** The words of a shell-form or exec-form argument list (shell form split on whitespace). */
export function argumentWords(instruction: Instruction): string[] {
  return instruction.exec ?? instruction.rest.split(/\s+/).filter((w) => w !== '');
}
