import type { KeysetPosition } from '../store/repos/keyset.js';

export type { KeysetPosition } from '../store/repos/keyset.js';

/** Which rows a keyset-paged read returns: those strictly after `after`, at most `limit` of them. */
export interface PageRequest<P = KeysetPosition> {
  after?: P;
  /** Rows to read: the page size plus one, so the extra row shows whether another page exists. */
  limit: number;
}

/** Rows of one keyset-paged read, with how to find a row's position (what a cursor resumes after). */
export interface KeysetRows<R, P = KeysetPosition> {
  rows: R[];
  position(row: R): P;
}
