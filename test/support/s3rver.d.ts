/** The part of s3rver's API (3.7, untyped) the test server uses. */
declare module 's3rver' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface S3rverOptions {
    directory: string;
    silent?: boolean;
    configureBuckets?: Array<{ name: string }>;
  }

  export default class S3rver {
    constructor(options: S3rverOptions);
    /** Creates the configured buckets in the store (run() does it before listening). */
    configureBuckets(): Promise<void>;
    /** The Koa request handler. */
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
  }
}
