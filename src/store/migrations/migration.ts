/** One schema step, with the DDL of each engine. */
export interface Migration {
  /** Sorts in application order; ranges per area: 00xx foundation, 01xx market data, 02xx options/snapshots, 03xx fundamentals, 04xx production. */
  id: string;
  sqlite: string;
  postgres: string;
}
