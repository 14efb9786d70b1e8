import type { z } from 'zod';
import type {
  OperationName,
  Operations,
  PathParams,
  RequestBody,
  RequestQuery,
  ResponseOf,
} from '../contract/index.js';

type Spec<N extends OperationName> = Operations[N];

/** The tenant is an argument of every call that sends X-Account-Id, never ambient state. */
type AccountPart<N extends OperationName> = Spec<N>['accountHeader'] extends true
  ? { accountId: number }
  : { accountId?: undefined };

type ParamsPart<N extends OperationName> = [PathParams<Spec<N>['path']>] extends [never]
  ? { params?: undefined }
  : { params: Readonly<Record<PathParams<Spec<N>['path']>, string | number>> };

// `object extends Q` is true when every query parameter is optional.
type QueryPart<N extends OperationName> =
  Spec<N> extends { query: z.ZodType }
    ? object extends RequestQuery<N>
      ? { query?: RequestQuery<N> }
      : { query: RequestQuery<N> }
    : { query?: undefined };

type BodyPart<N extends OperationName> =
  Spec<N> extends { body: z.ZodType } ? { body: RequestBody<N> } : { body?: undefined };

export interface CommonCallOptions {
  signal?: AbortSignal | undefined;
  /**
   * Resend a non-idempotent write after a 500 or a lost answer (1/2/4 s) instead of raising
   * AMBIGUOUS_WRITE. Only safe when resending cannot duplicate anything.
   */
  retryWrites?: boolean | undefined;
}

export type CallOptions<N extends OperationName> = AccountPart<N> &
  ParamsPart<N> &
  QueryPart<N> &
  BodyPart<N> &
  CommonCallOptions;

/** Lets `call('listAccounts')` omit the options when nothing in them is required. */
export type CallArgs<N extends OperationName> =
  object extends CallOptions<N> ? [options?: CallOptions<N>] : [options: CallOptions<N>];

/** The runtime view of CallOptions, once the types have done their job. */
export interface RuntimeCallOptions extends CommonCallOptions {
  accountId?: number | undefined;
  params?: Readonly<Record<string, string | number>> | undefined;
  query?: unknown;
  body?: unknown;
}

/** Operations whose answer is the pagination envelope. */
export type PaginatedOperation = {
  [N in OperationName]: ResponseOf<N> extends { totalPages: number; data: readonly unknown[] } ? N : never;
}[OperationName];

export type PageItem<N extends PaginatedOperation> =
  ResponseOf<N> extends { data: readonly (infer T)[] } ? T : never;
