/**
 * Takes the run's secrets out of text that came from outside (a server's error message, an error's
 * cause chain) before it reaches a log line, an outcome message or a report. A server may echo what
 * it was sent in any encoding, so each secret is matched in every form it could come back in:
 *
 * - character by character, each character raw or escaped: percent-encoded (UTF-8 bytes, upper or
 *   lower-case hex, also double-encoded `%25XX`), `+` for a space (form encoding), JSON escapes
 *   (`\uXXXX` in any case, `\/`, `\"`, `\\`, `\n`…) and HTML character references (`&amp;`,
 *   `&#38;`, `&#x26;`); so `a+b/c` is found as `a%2Bb%2fc`, `a\u002bb\/c` or any mixture;
 * - base64 and base64url: the secret inside any base64 text (HTTP Basic `id:secret`, a whole form
 *   body encoded), at each of the three byte alignments.
 *
 * The forms are compiled once into one regular expression, rebuilt only when a secret is added.
 * Scrubbing runs on error text only, never on every record's payload.
 */

export const SCRUBBED = '[REDACTED]';

/**
 * Shorter values are not registered: scrubbing a two-letter password out of every error message
 * would garble them all, and no credential that short protects anything.
 */
export const MIN_SECRET_LENGTH = 4;
/** A base64 fragment shorter than this could match unrelated text; such forms are left out. */
const MIN_BASE64_CORE = 8;
/** Access tokens rotate; only the newest are kept (an older one has expired long ago). */
const MAX_ROTATING = 16;

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/-]/g;
const escapeRegex = (text: string) => text.replace(REGEX_SPECIAL, '\\$&');

/** `2f` -> `2[fF]`: a hex digit pair in either case. */
function hexPattern(hex: string): string {
  return [...hex].map((d) => (/[a-f]/i.test(d) ? `[${d.toLowerCase()}${d.toUpperCase()}]` : d)).join('');
}

const JSON_SHORT: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '/': '\\/',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};
const HTML_NAMED: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Every way one character (a code point) can appear in echoed text, as a regex alternation. */
function charPattern(char: string): string {
  const forms = new Set<string>([escapeRegex(char)]);
  const bytes = [...Buffer.from(char, 'utf8')].map((b) => b.toString(16).padStart(2, '0'));
  forms.add(bytes.map((b) => `%${hexPattern(b)}`).join(''));
  forms.add(bytes.map((b) => `%25${hexPattern(b)}`).join(''));
  if (char === ' ') forms.add('\\+');
  const units = Array.from({ length: char.length }, (_, i) => char.charCodeAt(i));
  forms.add(units.map((u) => `\\\\u${hexPattern(u.toString(16).padStart(4, '0'))}`).join(''));
  const short = JSON_SHORT[char];
  if (short) forms.add(escapeRegex(short));
  const named = HTML_NAMED[char];
  if (named) forms.add(escapeRegex(named));
  const code = char.codePointAt(0) ?? 0;
  forms.add(`&#0*${code};`);
  forms.add(`&#[xX]0*${hexPattern(code.toString(16))};`);
  return `(?:${[...forms].join('|')})`;
}

/** The secret character by character, each in any of its forms. */
function escapedPattern(secret: string): string {
  return [...secret].map(charPattern).join('');
}

/**
 * The base64 text that any base64 string containing `secret` must contain, for each of the three
 * positions the secret can start at within a 3-byte group; standard and url-safe alphabets.
 */
export function base64Cores(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const cores = new Set<string>();
  for (let offset = 0; offset < 3; offset++) {
    // `offset` filler bytes before the secret; characters that mix filler or what follows are cut.
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const start = offset === 0 ? 0 : Math.ceil((offset * 8) / 6);
    const fullBytes = offset + bytes.length;
    const end = Math.floor((fullBytes * 8) / 6);
    const core = encoded.slice(start, end);
    if (core.length >= MIN_BASE64_CORE) {
      cores.add(core);
      cores.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  return [...cores];
}

/**
 * The texts whose base64 a server might echo: the secret itself (HTTP Basic `id:secret`) and the
 * secret as a form body or a JSON body carries it (a whole request body echoed base64-encoded).
 */
function base64Sources(secret: string): string[] {
  const form = new URLSearchParams({ s: secret }).toString().slice(2);
  return [...new Set([secret, encodeURIComponent(secret), form, JSON.stringify(secret).slice(1, -1)])];
}

/** Every base64 fragment that gives one secret away (see base64Cores). */
export function base64Forms(secret: string): string[] {
  return [...new Set(base64Sources(secret).flatMap(base64Cores))];
}

/**
 * A plain substring that every escaped form of `secret` shows once escapes of ASCII letters and
 * digits are decoded (decodeAlnum): its longest run of letters and digits. Undefined when the
 * secret has no run of 3 or contains `%`, `\` or `&#`, whose own escapes could blur the run:
 * such a secret is always matched with its full pattern.
 */
export function anchorOf(secret: string): string | undefined {
  if (/[%\\]|&#/.test(secret)) return undefined;
  const runs = secret.match(/[A-Za-z0-9]{3,}/g) ?? [];
  return runs.sort((a, b) => b.length - a.length)[0];
}

const ALNUM_ESCAPE = /%(?:25)?([0-9a-fA-F]{2})|\\u([0-9a-fA-F]{4})|&#[xX]([0-9a-fA-F]+);|&#(\d+);/g;

/** `text` with percent, JSON \u and HTML numeric escapes decoded (to find anchors, not to show). */
function decodeAlnum(text: string): string {
  if (!/[%\\&]/.test(text)) return text;
  return text.replace(ALNUM_ESCAPE, (_m, pct?: string, u?: string, hex?: string, dec?: string) =>
    String.fromCharCode(pct || u || hex ? Number.parseInt((pct ?? u ?? hex) as string, 16) : Number(dec)),
  );
}

interface CompiledSecret {
  /** Every escaped form, character by character. */
  pattern: RegExp;
  anchor: string | undefined;
}

interface Compiled {
  secrets: CompiledSecret[];
  base64: RegExp | undefined;
  /** The last text scrubbed with these secrets, and the result. */
  last?: { text: string; scrubbed: string };
}

export class SecretScrubber {
  readonly #fixed = new Set<string>();
  readonly #rotating: string[] = [];
  #compiled: Compiled | undefined;

  /** Registers a long-lived secret (client secret, a password, the admin token). */
  add(secret: string | undefined): void {
    if (!secret || secret.length < MIN_SECRET_LENGTH || this.#fixed.has(secret)) return;
    this.#fixed.add(secret);
    this.#compiled = undefined;
  }

  /** Registers a rotating secret (an access or init token); only the newest MAX_ROTATING are kept. */
  addRotating(secret: string | undefined): void {
    if (!secret || secret.length < MIN_SECRET_LENGTH || this.#rotating.includes(secret)) return;
    this.#rotating.push(secret);
    if (this.#rotating.length > MAX_ROTATING) this.#rotating.shift();
    this.#compiled = undefined;
  }

  /**
   * `text` with every form of every registered secret replaced by [REDACTED]. Cheap when nothing
   * matches: one decoding pass and a substring test per secret; a secret's full pattern runs only
   * when its anchor is present.
   */
  scrub(text: string): string {
    const compiled = this.#compile();
    if (compiled.secrets.length === 0 || text.length === 0) return text;
    // One failure's message is often settled on every record of a chunk or a stopped run: the
    // same text in a row is scrubbed once (the cache goes with the compiled secrets).
    if (compiled.last?.text === text) return compiled.last.scrubbed;
    const view = decodeAlnum(text);
    let out = text;
    for (const secret of compiled.secrets) {
      if (secret.anchor === undefined || view.includes(secret.anchor))
        out = out.replace(secret.pattern, SCRUBBED);
    }
    const scrubbed = compiled.base64 ? out.replace(compiled.base64, SCRUBBED) : out;
    compiled.last = { text, scrubbed };
    return scrubbed;
  }

  /**
   * A copy of `value` with every string in it scrubbed (objects and arrays walked, depth-limited):
   * for a serialized error with its `cause` chain. Values without secrets come back unchanged.
   */
  scrubDeep<T>(value: T, depth = 6): T {
    if (typeof value === 'string') return this.scrub(value) as T;
    if (depth === 0 || value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((v) => this.scrubDeep(v, depth - 1)) as T;
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) out[key] = this.scrubDeep(v, depth - 1);
    return out as T;
  }

  #compile(): Compiled {
    if (this.#compiled) return this.#compiled;
    // Longest first, so a secret that contains another is replaced whole.
    const all = [...this.#fixed, ...this.#rotating].sort((a, b) => b.length - a.length);
    const cores = [...new Set(all.flatMap(base64Forms))].sort((a, b) => b.length - a.length);
    this.#compiled = {
      secrets: all.map((secret) => ({
        pattern: new RegExp(escapedPattern(secret), 'g'),
        anchor: anchorOf(secret),
      })),
      base64: cores.length > 0 ? new RegExp(cores.map(escapeRegex).join('|'), 'g') : undefined,
    };
    return this.#compiled;
  }
}

/**
 * The process's scrubber: the client registers its secret and each token it receives, the fleet
 * the Redis password, the admin server its credentials. One per process, because the logger, the
 * client and the report writers meet nowhere else; a secret registered stays registered.
 */
export const secrets = new SecretScrubber();

/** Shorthand for `secrets.scrub`. */
