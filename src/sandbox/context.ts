import type { z } from 'zod';
import type { OperationName, Operations } from '../contract/index.js';
import type { AccountRecord, ClientRecord, PartnerRecord, SandboxState } from './state.js';

type BodyOf<N extends OperationName> = Operations[N] extends { body: infer B extends z.ZodType }
  ? z.output<B>
  : undefined;
type QueryOf<N extends OperationName> = Operations[N] extends { query: infer Q extends z.ZodType }
  ? z.output<Q>
  : undefined;

/** Everything a handler gets: the authenticated caller, the tenant, and the validated request. */
export interface RequestContext<N extends OperationName> {
  readonly op: N;
  readonly params: Readonly<Record<string, string>>;
  /** Query validated strictly by the contract's schema. */
  readonly query: QueryOf<N>;
  /** Body validated strictly by the contract's schema; undefined when the handler set `rawBody`. */
  readonly body: BodyOf<N>;
  /** The JSON body as received, for handlers that validate item by item (bulk endpoints). */
  readonly rawBody: unknown;
  readonly client: ClientRecord;
  readonly partner: PartnerRecord;
  /** The tenant chosen by X-Account-Id; only for operations that carry the header. */
  readonly account: AccountRecord;
  readonly state: SandboxState;
  /** Sandbox clock, milliseconds since the epoch (can be advanced through /_sandbox/clock). */
  readonly now: number;
}

export interface HandlerResult {
  status?: number;
  body: unknown;
}

export interface OperationHandler<N extends OperationName> {
  /** Skip the contract's body validation: the handler reads `rawBody` and reports per-item errors. */
  readonly rawBody?: boolean;
  handle(ctx: RequestContext<N>): HandlerResult | Promise<HandlerResult>;
}

export type HandlerTable = { readonly [N in OperationName]: OperationHandler<N> };
export type PartialHandlerTable = { readonly [N in OperationName]?: OperationHandler<N> };

/** A tiny helper so each handler module reads as a table keyed by operation name. */
export function handlers<T extends PartialHandlerTable>(table: T): T {
  return table;
}

export const ok = (body: unknown, status = 200): HandlerResult => ({ status, body });
