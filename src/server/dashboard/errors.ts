import { AccountError, type AccountErrorCode } from '../../services/accounts.js';
import { ApiError, type ErrorCode } from '../../domain/errors.js';

// The account service's error codes as the HTTP API's, in one place.
const HTTP_CODE: Record<AccountErrorCode, ErrorCode> = {
  BAD_INPUT: 'BAD_PARAMETER',
  EMAIL_TAKEN: 'CONFLICT',
  SIGNUP_CLOSED: 'FORBIDDEN',
  BAD_INVITATION: 'FORBIDDEN',
  BAD_CREDENTIALS: 'NOT_SIGNED_IN',
  LOCKED: 'ACCOUNT_LOCKED',
  NOT_FOUND: 'NOT_FOUND',
};

/** An AccountError as an ApiError (a locked account's answer says when to retry); anything else unchanged. */
export function toApiError(err: unknown, now: number): unknown {
  if (!(err instanceof AccountError)) return err;
  const headers: Record<string, string> = err.until ? { 'Retry-After': String(Math.max(1, Math.ceil((err.until - now) / 1000))) } : {};
  return new ApiError(HTTP_CODE[err.code], err.message, headers);
}

/** Runs fn, turning an AccountError into the matching ApiError. */
export async function mapAccountErrors<T>(now: () => number, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw toApiError(err, now());
  }
}
