// The closed catalogue of error codes. Services throw ApiError values; the HTTP layer maps each
// code to its status and body in one place (see app.ts).

export const ERROR_CODES = {
  BAD_PARAMETER: { http: 400, status: 'ERROR' },
  BAD_CURSOR: { http: 400, status: 'ERROR' },
  MISSING_KEY: { http: 401, status: 'ERROR' },
  UNKNOWN_KEY: { http: 401, status: 'ERROR' },
  /** A key that existed and was revoked: refused as an unknown one, told apart for the client. */
  REVOKED_KEY: { http: 401, status: 'ERROR' },
  EXPIRED_KEY: { http: 401, status: 'ERROR' },
  NOT_SIGNED_IN: { http: 401, status: 'ERROR' },
  NOT_AUTHORIZED: { http: 403, status: 'NOT_AUTHORIZED' },
  FORBIDDEN: { http: 403, status: 'NOT_AUTHORIZED' },
  NOT_FOUND: { http: 404, status: 'NOT_FOUND' },
  ROUTE_NOT_FOUND: { http: 404, status: 'NOT_FOUND' },
  METHOD_NOT_ALLOWED: { http: 405, status: 'ERROR' },
  REQUEST_TIMEOUT: { http: 408, status: 'ERROR' },
  CONFLICT: { http: 409, status: 'ERROR' },
  PAYLOAD_TOO_LARGE: { http: 413, status: 'ERROR' },
  HEADERS_TOO_LARGE: { http: 431, status: 'ERROR' },
  RATE_LIMITED: { http: 429, status: 'ERROR' },
  ACCOUNT_LOCKED: { http: 429, status: 'ERROR' },
  INTERNAL: { http: 500, status: 'ERROR' },
  STORE_UNAVAILABLE: { http: 503, status: 'ERROR' },
  /** SQLite: another writer (an import) holds the write lock; reads still work. */
  STORE_BUSY: { http: 503, status: 'ERROR' },
  DEPENDENCY_UNAVAILABLE: { http: 503, status: 'ERROR' },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export class ApiError extends Error {
  readonly http: number;
  readonly status: string;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.http = ERROR_CODES[code].http;
    this.status = ERROR_CODES[code].status;
  }
}

export const badParameter = (message: string) => new ApiError('BAD_PARAMETER', message);
export const notFound = (message: string) => new ApiError('NOT_FOUND', message);
