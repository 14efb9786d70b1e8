import { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  paginateListObjectsV2,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { type Clock, systemClock } from '../../time/clock.js';
import { globMatcher } from '../glob.js';
import type { ByteRange, LocatedFile, Location } from './location.js';
import { type S3LocationConfig, s3Label } from './location-config.js';
import {
  DEFAULT_READ_RETRY,
  type ObjectPart,
  type PartRequest,
  type ReadRetry,
  type RetryNotice,
  resumableRead,
} from './resumable-read.js';
import { isNotFound, S3LocationError, s3Failure } from './s3-errors.js';
import { copySource, listingPrefix, matchesStayInPrefixFolder, movedKey } from './s3-keys.js';

export interface S3LocationOptions {
  /** How a read resumes after transient errors (default: 5 retries, 200 ms doubling up to 5 s). */
  retry?: Partial<ReadRetry>;
  clock?: Clock;
  /** Told before a read retries (the plumbing logs it). */
  onRetry?: (notice: RetryNotice) => void;
}

/**
 * A feed's exports in an S3 bucket (or an S3-compatible store at `endpoint`), through the AWS SDK
 * v3 client. Credentials come from the SDK's standard chain (AWS_ACCESS_KEY_ID and
 * AWS_SECRET_ACCESS_KEY, AWS_PROFILE and the shared credentials file, web identity, container or
 * instance roles): never from the feed, never logged. Paths are object keys; `move` copies then
 * deletes (S3 has no rename).
 */
export function openS3Location(config: S3LocationConfig, options: S3LocationOptions = {}): Location {
  const client = new S3Client(clientConfig(config));
  const bucket = config.bucket;
  const label = s3Label(config);
  const retry = { ...DEFAULT_READ_RETRY, ...options.retry };
  const clock = options.clock ?? systemClock;
  const onRetry = options.onRetry ?? (() => {});

  const call = async <T>(operation: string, path: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw s3Failure(label, operation, path, error);
    }
  };

  const located = (
    path: string,
    size: number | undefined,
    modified: Date | undefined,
    operation: string,
  ): LocatedFile => {
    if (size === undefined || modified === undefined)
      throw new S3LocationError(
        'FAILED',
        path,
        `${label}: ${operation} ${path}: the store's answer lacks the size or the modification time`,
      );
    return { path, size, mtimeMs: modified.getTime() };
  };

  /** The object's HEAD answer, or undefined when there is no such key. */
  const head = (path: string) =>
    call('HEAD', path, async () => {
      try {
        return await client.send(new HeadObjectCommand({ Bucket: bucket, Key: path }));
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    });

  const openPart = async (path: string, request: PartRequest, signal: AbortSignal): Promise<ObjectPart> => {
    const whole = request.start === 0 && request.end === undefined;
    const answer = await client.send(
      new GetObjectCommand({
        Bucket: bucket,
        Key: path,
        // An empty object has no byte 0 to name, so the whole file is asked for without a range.
        Range: whole
          ? undefined
          : `bytes=${request.start}-${request.end === undefined ? '' : request.end - 1}`,
        IfMatch: request.ifMatch,
      }),
      { abortSignal: signal },
    );
    const body = answer.Body;
    if (!(body instanceof Readable) || answer.ContentLength === undefined) {
      if (body instanceof Readable) body.destroy();
      throw new S3LocationError('FAILED', path, `${label}: GET ${path}: the answer has no body or no length`);
    }
    return { body, etag: answer.ETag, start: rangeStart(answer.ContentRange), length: answer.ContentLength };
  };

  return {
    label,

    list: (glob) =>
      call('LIST', glob, async () => {
        const matches = globMatcher(glob);
        const pages = paginateListObjectsV2(
          { client },
          {
            Bucket: bucket,
            Prefix: listingPrefix(glob),
            Delimiter: matchesStayInPrefixFolder(glob) ? '/' : undefined,
          },
        );
        const files: LocatedFile[] = [];
        for await (const page of pages) {
          for (const object of page.Contents ?? []) {
            if (object.Key === undefined || !matches(object.Key)) continue;
            files.push(located(object.Key, object.Size, object.LastModified, 'LIST'));
          }
        }
        return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      }),

    // One page (up to 1000 names) is enough for a message; a missing prefix reads as empty.
    names: (folder) =>
      call('LIST', folder, async () => {
        const prefix = folder === '' || folder.endsWith('/') ? folder : `${folder}/`;
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix || undefined, Delimiter: '/' }),
        );
        const names = [
          ...(page.Contents ?? []).map((o) => o.Key?.slice(prefix.length)),
          ...(page.CommonPrefixes ?? []).map((p) => p.Prefix?.slice(prefix.length)),
        ];
        return names.filter((n): n is string => n !== undefined && n !== '').sort();
      }),

    stat: async (path) => {
      const found = await head(path);
      return found && located(path, found.ContentLength, found.LastModified, 'HEAD');
    },

    read: (path, range: ByteRange = { start: 0 }) =>
      resumableRead({
        path,
        label,
        range,
        retry,
        clock,
        onRetry,
        open: (request, signal) => openPart(path, request, signal),
        fail: (error) => s3Failure(label, 'GET', path, error),
      }),

    move: async (path, folder) => {
      const target = movedKey(path, folder);
      // A file of the same name moved there before is not overwritten (as on a disk); the same
      // object there already is this move's own copy, whose delete was lost: finish it.
      const there = await head(target);
      if (there !== undefined) {
        if (there.ETag !== (await head(path))?.ETag)
          throw new Error(`s3://${bucket}/${target} exists already; ${path} is left where it is`);
        await call(`DELETE (already copied to ${target})`, path, () =>
          client.send(new DeleteObjectCommand({ Bucket: bucket, Key: path })),
        );
        return target;
      }
      await call('COPY', path, () =>
        client.send(
          new CopyObjectCommand({ Bucket: bucket, Key: target, CopySource: copySource(bucket, path) }),
        ),
      );
      await call(`DELETE (after copying it to ${target})`, path, () =>
        client.send(new DeleteObjectCommand({ Bucket: bucket, Key: path })),
      );
      return target;
    },

    remove: async (path) => {
      await call('DELETE', path, () => client.send(new DeleteObjectCommand({ Bucket: bucket, Key: path })));
    },

    close: async () => {
      client.destroy();
    },
  };
}

/**
 * No credentials here: the SDK's default chain finds them. A custom endpoint without a region gets
 * us-east-1 (what S3-compatible stores expect when they ignore regions); for AWS the region comes
 * from the feed, AWS_REGION or the profile.
 */
function clientConfig(config: S3LocationConfig): S3ClientConfig {
  const region = config.region ?? (config.endpoint !== undefined ? 'us-east-1' : undefined);
  return {
    ...(region !== undefined && { region }),
    ...(config.endpoint !== undefined && { endpoint: config.endpoint }),
    forcePathStyle: config.forcePathStyle,
    // A connection that cannot open in 10 s, or goes silent for 60 s, fails (and a read resumes)
    // instead of hanging the import.
    requestHandler: { connectionTimeout: 10_000, socketTimeout: 60_000 },
  };
}

/** The first byte of a `Content-Range: bytes <first>-<last>/<size>` answer; 0 when it has none. */
function rangeStart(contentRange: string | undefined): number {
  const first = contentRange?.match(/^bytes (\d+)-/)?.[1];
  return first === undefined ? 0 : Number(first);
}
