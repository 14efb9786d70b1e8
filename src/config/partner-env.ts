import * as z from 'zod';
import { lookalikes } from './did-you-mean.js';
import { ConfigError } from './errors.js';

/** Typed partner API settings; field names match PartnerClientSettings of src/client. */
export interface PartnerConfig {
  /** `{base_url}` without a trailing slash, ending in /v2. */
  baseUrl: string;
  /** `{auth_url}` without a trailing slash. */
  authUrl: string;
  clientId: string;
  clientSecret: string;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  connections: number;
  tokenRenewMarginMs: number;
  retryAfterDefaultMs: number;
  retryAfterMaxMs: number;
  rateLimitMaxTotalWaitMs: number;
  /** PARTNER_INFLIGHT_GRACE_MS; undefined = the client's default (twice the headers timeout). */
  inFlightGraceMs?: number;
}

export interface ConfigProblem {
  variable: string;
  problem: string;
}

/**
 * Every problem of the environment at once, so a fresh deployment is fixed in one round. Values
 * are never echoed: one of them is the client secret, and URLs may carry credentials.
 * A ConfigError like the feed-file errors, so the CLI maps both to exit code 2 the same way;
 * `variables` names the variables at fault, for tests and tools.
 */
export class PartnerConfigError extends ConfigError {
  readonly variables: readonly string[];

  constructor(problems: readonly ConfigProblem[]) {
    super(
      `invalid partner API configuration (${problems.length} problem${problems.length === 1 ? '' : 's'}); fix these environment variables:`,
      problems.map((p) => `${p.variable} ${p.problem}`),
    );
    this.variables = [...new Set(problems.map((p) => p.variable))];
  }
}

const missing = (what: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `is missing; set it to ${what}` : `must be text (${what})`;

function required(what: string) {
  return z
    .string({ error: missing(what) })
    .trim()
    .min(1, { error: `is empty; set it to ${what}` });
}

function httpUrl(what: string, rule?: { test: (path: string) => boolean; message: string }) {
  return required(what).transform((text, ctx) => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: `is not a URL; set it to ${what}` });
      return z.NEVER;
    }
    const problem =
      url.protocol !== 'https:' && url.protocol !== 'http:'
        ? 'must be an http(s) URL'
        : url.username || url.password
          ? 'must not carry credentials; use PARTNER_CLIENT_ID and PARTNER_CLIENT_SECRET'
          : url.search || url.hash
            ? 'must not have a query or fragment'
            : undefined;
    const path = url.pathname.replace(/\/+$/, '');
    const ruleProblem = rule && !rule.test(path) ? rule.message : undefined;
    if (problem || ruleProblem) {
      ctx.addIssue({ code: 'custom', message: problem ?? ruleProblem ?? '' });
      return z.NEVER;
    }
    return `${url.origin}${path}`;
  });
}

/** '' counts as unset (an empty variable in a compose file or .env). */
const blankAsUnset = (v: unknown) => (v === '' ? undefined : v);

/** A whole number from `min` to `max` written as text; `unset` says what an unset variable means. */
function wholeNumberText(min: number, max: number, unit: string, unset: string) {
  const rule = `must be a whole number of ${unit} from ${min} to ${max} (${unset})`;
  return z
    .string()
    .trim()
    .regex(/^\d+$/, { error: rule })
    .transform(Number)
    .pipe(z.number().int().min(min, { error: rule }).max(max, { error: rule }));
}

/** An optional whole number with a default. */
function wholeNumber(defaultValue: number, min: number, max: number, unit: string) {
  return z.preprocess(
    blankAsUnset,
    wholeNumberText(min, max, unit, `default ${defaultValue}`).optional().default(defaultValue),
  );
}

/** An optional whole number without a default (unset = derived elsewhere). */
function optionalWholeNumber(min: number, max: number, unit: string, unsetMeans: string) {
  return z.preprocess(blankAsUnset, wholeNumberText(min, max, unit, `unset: ${unsetMeans}`).optional());
}

const HOUR_S = 3_600;
const DAY_S = 86_400;

const PartnerEnv = z.object({
  PARTNER_API_URL: httpUrl('the partner API root, e.g. https://api.example.com/partner/v2', {
    test: (path) => path.endsWith('/v2'),
    message: 'must end in /v2 (the partner API root including its major version)',
  }),
  PARTNER_AUTH_URL: httpUrl('the OAuth 2.0 authorization server, e.g. https://auth.example.com'),
  PARTNER_CLIENT_ID: required('the OAuth client id issued to the partner'),
  PARTNER_CLIENT_SECRET: required('the OAuth client secret issued to the partner'),
  PARTNER_CONNECT_TIMEOUT_MS: wholeNumber(10_000, 1, HOUR_S * 1_000, 'milliseconds'),
  PARTNER_HEADERS_TIMEOUT_MS: wholeNumber(60_000, 1, HOUR_S * 1_000, 'milliseconds'),
  PARTNER_BODY_TIMEOUT_MS: wholeNumber(60_000, 1, HOUR_S * 1_000, 'milliseconds'),
  PARTNER_CONNECTIONS: wholeNumber(16, 1, 1_024, 'connections'),
  PARTNER_TOKEN_RENEW_MARGIN_S: wholeNumber(60, 0, HOUR_S - 1, 'seconds'),
  PARTNER_RETRY_AFTER_DEFAULT_S: wholeNumber(5, 0, HOUR_S, 'seconds'),
  PARTNER_RETRY_AFTER_MAX_S: wholeNumber(300, 1, DAY_S, 'seconds'),
  PARTNER_RATE_LIMIT_MAX_WAIT_S: wholeNumber(900, 1, DAY_S, 'seconds'),
  PARTNER_INFLIGHT_GRACE_MS: optionalWholeNumber(
    0,
    DAY_S * 1_000,
    'milliseconds',
    'twice PARTNER_HEADERS_TIMEOUT_MS',
  ),
});

/**
 * Checks between variables, run even when other variables are broken so that one round reports
 * everything (zod skips object-level refinements once a field has failed).
 */
function crossProblems(env: Record<string, unknown>): ConfigProblem[] {
  const retryDefault = PartnerEnv.shape.PARTNER_RETRY_AFTER_DEFAULT_S.safeParse(
    env.PARTNER_RETRY_AFTER_DEFAULT_S,
  );
  const retryMax = PartnerEnv.shape.PARTNER_RETRY_AFTER_MAX_S.safeParse(env.PARTNER_RETRY_AFTER_MAX_S);
  if (retryDefault.success && retryMax.success && retryDefault.data > retryMax.data) {
    return [
      { variable: 'PARTNER_RETRY_AFTER_DEFAULT_S', problem: 'must not exceed PARTNER_RETRY_AFTER_MAX_S' },
    ];
  }
  return [];
}

/** Reads and validates the partner API settings from `env`; throws ConfigError naming every problem. */
export function loadPartnerConfig(env: NodeJS.ProcessEnv): PartnerConfig {
  const keys = Object.keys(PartnerEnv.shape);
  const picked = Object.fromEntries(keys.map((key) => [key, env[key]]));
  const parsed = PartnerEnv.safeParse(picked);
  const problems = [
    ...(parsed.success ? [] : parsed.error.issues).map((issue) => ({
      variable: String(issue.path[0] ?? 'environment'),
      problem: issue.message,
    })),
    ...crossProblems(picked),
  ];
  if (!parsed.success || problems.length > 0) throw new PartnerConfigError(withLookalikes(problems, env));
  const e = parsed.data;
  return {
    baseUrl: e.PARTNER_API_URL,
    authUrl: e.PARTNER_AUTH_URL,
    clientId: e.PARTNER_CLIENT_ID,
    clientSecret: e.PARTNER_CLIENT_SECRET,
    connectTimeoutMs: e.PARTNER_CONNECT_TIMEOUT_MS,
    headersTimeoutMs: e.PARTNER_HEADERS_TIMEOUT_MS,
    bodyTimeoutMs: e.PARTNER_BODY_TIMEOUT_MS,
    connections: e.PARTNER_CONNECTIONS,
    tokenRenewMarginMs: e.PARTNER_TOKEN_RENEW_MARGIN_S * 1_000,
    retryAfterDefaultMs: e.PARTNER_RETRY_AFTER_DEFAULT_S * 1_000,
    retryAfterMaxMs: e.PARTNER_RETRY_AFTER_MAX_S * 1_000,
    rateLimitMaxTotalWaitMs: e.PARTNER_RATE_LIMIT_MAX_WAIT_S * 1_000,
    ...(e.PARTNER_INFLIGHT_GRACE_MS === undefined ? {} : { inFlightGraceMs: e.PARTNER_INFLIGHT_GRACE_MS }),
  };
}

/** A missing variable's problem names a set variable that looks like a typo of it. */
function withLookalikes(problems: ConfigProblem[], env: NodeJS.ProcessEnv): ConfigProblem[] {
  const known = new Set(Object.keys(PartnerEnv.shape));
  const unknown = Object.keys(env).filter((name) => !known.has(name) && env[name] !== undefined);
  return problems.map((p) => {
    if (env[p.variable] !== undefined) return p;
    const similar = lookalikes(p.variable, unknown);
    return similar.length === 0
      ? p
      : { ...p, problem: `${p.problem} (${similar.join(', ')} is set: did you mean ${p.variable}?)` };
  });
}
