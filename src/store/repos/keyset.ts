import type { SqlValue } from '../driver.js';

/** Position of the last row a page returned: its sort value and its unique tiebreaker. */
export interface KeysetPosition {
  value: string | number | null;
  id: number | string;
}

/**
 * The WHERE fragment that resumes strictly after `after` for ORDER BY sortExpr dir, idExpr dir.
 * Sort expressions must not yield NULL (wrap nullable columns in COALESCE) so comparisons hold.
 */
export function keysetCondition(
  sortExpr: string,
  idExpr: string,
  order: 'asc' | 'desc',
  after: KeysetPosition,
): { sql: string; params: SqlValue[] } {
  const op = order === 'asc' ? '>' : '<';
  const v = after.value ?? '';
  // The leading inclusive bound lets an index on the sort column seek to the position.
  return {
    sql: `(${sortExpr} ${op}= ? AND (${sortExpr} ${op} ? OR (${sortExpr} = ? AND ${idExpr} ${op} ?)))`,
    params: [v, v, v, after.id],
  };
}

/** Escapes LIKE wildcards so user text matches literally (used with ESCAPE '\\'). */
export function likeContains(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
