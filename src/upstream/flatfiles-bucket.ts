// Upstream's flat-file bucket over S3 (@aws-sdk/client-s3): listing a prefix page by page and
// streaming one object's body, with every failure turned into a FlatFilesBucketError whose code
// says what the caller should do (stop the run, skip the object, try again later).
//
// Addressing is path-style (ENDPOINT/BUCKET/KEY): the endpoint (https://files.massive.com) is not
// the bucket's own host. Every request has a deadline: the SDK's connection and socket timeouts
// for the request, and, while a body streams, a watchdog that ends it when no byte came for
// `idleTimeoutMs` (a server that stops sending mid-object would otherwise hold the run forever).
import { GetObjectCommand, ListObjectsV2Command, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';

export const DEFAULT_FLATFILES_ENDPOINT = 'https://files.massive.com';
export const DEFAULT_FLATFILES_BUCKET = 'flatfiles';

export interface FlatFilesBucketOptions {
  endpoint: string;
  bucket: string;
  accessKey: string;
  secretKey: string;
  /** S3 wants a region in the signature; upstream's endpoint accepts us-east-1. */
  region?: string;
  /** Deadline to connect and for a request's answer to start, and for one page of a listing. Default 30 s. */
  timeoutMs?: number;
  /** A body that sends nothing for this long is abandoned. Default 60 s. */
  idleTimeoutMs?: number;
  /** Attempts per request on 5xx, throttling and network errors (the SDK's backoff). Default 3. */
  maxAttempts?: number;
}

export interface BucketObject {
  key: string;
  size: number;
  /** As S3 gives it, quotes included. */
  etag: string;
}

export interface OpenedObject {
  body: AsyncIterable<Uint8Array>;
  size: number;
  etag: string;
}

/**
 * - `bad_credentials`: the access key is unknown or the secret does not sign for it; nothing
 *   else will work, so a run stops.
 * - `access_denied`: the key is valid but may not read this object (outside the plan, or not
 *   yet published); other objects may still be read.
 * - `not_found`: no such object (removed since the listing) or no such bucket.
 * - `changed`: the object is no longer the version asked for (republished since the listing).
 * - `timeout`: no answer, or no byte of the body, within the deadline.
 * - `unavailable`: anything else (5xx after retries, refused connections).
 */
export type BucketErrorCode = 'bad_credentials' | 'access_denied' | 'not_found' | 'changed' | 'timeout' | 'unavailable';

export class FlatFilesBucketError extends Error {
  override readonly name = 'FlatFilesBucketError';
  constructor(
    readonly code: BucketErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const CREDENTIAL_ERRORS = new Set(['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'InvalidToken', 'ExpiredToken', 'AuthorizationHeaderMalformed']);

export class FlatFilesBucket {
  private readonly client: S3Client;
  private readonly timeoutMs: number;
  private readonly idleTimeoutMs: number;
  readonly bucket: string;
  readonly endpoint: string;

  constructor(opts: FlatFilesBucketOptions) {
    this.bucket = opts.bucket;
    this.endpoint = opts.endpoint;
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.idleTimeoutMs = opts.idleTimeoutMs ?? 60_000;
    this.client = new S3Client({
      endpoint: opts.endpoint,
      region: opts.region ?? 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: opts.accessKey, secretAccessKey: opts.secretKey },
      maxAttempts: opts.maxAttempts ?? 3,
      requestHandler: { connectionTimeout: this.timeoutMs, requestTimeout: this.timeoutMs },
      // Checksums only where S3 requires them: other S3-compatible servers may not send them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  /** Every object under `prefix`, in key order, listing page by page. */
  async *list(prefix: string): AsyncGenerator<BucketObject> {
    let token: string | undefined;
    do {
      const page = await this.call(`listing ${prefix}`, undefined, (signal) =>
        this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }), { abortSignal: signal }),
      );
      for (const o of page.Contents ?? []) {
        if (o.Key === undefined || o.Key.endsWith('/')) continue;
        yield { key: o.Key, size: Number(o.Size ?? 0), etag: o.ETag ?? '' };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
  }

  /**
   * Opens an object's body as a stream. With `etag`, only that version is served (If-Match): a
   * republished object fails with `changed` instead of mixing versions in one run.
   */
  async open(key: string, etag?: string): Promise<OpenedObject> {
    const out = await this.call(key, key, (signal) =>
      this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, IfMatch: etag }), { abortSignal: signal }),
    );
    const body = out.Body as Readable | undefined;
    if (body === undefined) throw new FlatFilesBucketError('unavailable', `${key}: the bucket answered without a body`);
    return { body: this.watched(body, key), size: Number(out.ContentLength ?? 0), etag: out.ETag ?? etag ?? '' };
  }

  destroy(): void {
    this.client.destroy();
  }

  /** The body, ended with a `timeout` error when it goes silent for idleTimeoutMs. */
  private async *watched(body: Readable, key: string): AsyncGenerator<Uint8Array> {
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        body.destroy(new FlatFilesBucketError('timeout', `${key}: no data from the bucket for ${this.idleTimeoutMs / 1000} s; the download was abandoned`));
      }, this.idleTimeoutMs);
    };
    try {
      arm();
      for await (const chunk of body) {
        arm();
        yield chunk as Uint8Array;
      }
    } catch (err) {
      if (err instanceof FlatFilesBucketError) throw err;
      throw new FlatFilesBucketError('unavailable', `${key}: the download broke off: ${(err as Error).message}`, { cause: err });
    } finally {
      clearTimeout(timer);
      body.destroy();
    }
  }

  /** Runs one request with an overall deadline and classifies its failure. */
  private async call<T>(what: string, key: string | undefined, send: (signal: AbortSignal) => Promise<T>): Promise<T> {
    // The SDK retries inside send(); the deadline covers the attempts together, with room for them.
    const deadline = AbortSignal.timeout(this.timeoutMs * 2);
    try {
      return await send(deadline);
    } catch (err) {
      throw this.classify(err, what, key, deadline.aborted);
    }
  }

  private classify(err: unknown, what: string, key: string | undefined, timedOut: boolean): FlatFilesBucketError {
    const name = (err as { name?: string }).name ?? '';
    const status = err instanceof S3ServiceException ? err.$metadata.httpStatusCode : undefined;
    const where = `${this.endpoint}/${this.bucket}`;
    if (CREDENTIAL_ERRORS.has(name)) {
      return new FlatFilesBucketError(
        'bad_credentials',
        `the flat-file bucket ${where} refused the S3 credentials (${name}): check --s3-access-key and --s3-secret-key ` +
          '(the S3 keys of your upstream account, not its REST API key)',
        { cause: err },
      );
    }
    if (status === 403 || name === 'AccessDenied' || name === 'Forbidden') {
      // A refused listing means the keys are no good for this bucket at all.
      if (key === undefined) {
        return new FlatFilesBucketError('bad_credentials', `the flat-file bucket ${where} refused ${what} (403 ${name}): check the S3 keys and --s3-bucket`, { cause: err });
      }
      return new FlatFilesBucketError(
        'access_denied',
        `${key}: access denied (403): the file may lie outside your plan's data sets or history, or not be published yet (a day's files appear the next morning)`,
        { cause: err },
      );
    }
    if (name === 'NoSuchBucket') return new FlatFilesBucketError('not_found', `no bucket ${this.bucket} at ${this.endpoint} (--s3-bucket)`, { cause: err });
    if (status === 404 || name === 'NoSuchKey' || name === 'NotFound') return new FlatFilesBucketError('not_found', `${what}: not found (removed since it was listed?)`, { cause: err });
    if (status === 412 || name === 'PreconditionFailed') return new FlatFilesBucketError('changed', `${what}: republished while the run was going; run again to fetch the new version`, { cause: err });
    if (timedOut || name === 'TimeoutError' || name === 'AbortError' || /timed? ?out/i.test((err as Error).message ?? '')) {
      return new FlatFilesBucketError('timeout', `${what}: no answer from ${where} within ${(this.timeoutMs * 2) / 1000} s`, { cause: err });
    }
    const detail = status !== undefined ? `${status} ${name}` : `${name}: ${(err as Error).message}`;
    return new FlatFilesBucketError('unavailable', `${what}: the bucket at ${this.endpoint} failed (${detail})`, { cause: err });
  }
}
