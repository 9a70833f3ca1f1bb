// Binary COPYs of the live feed's rows in one round trip. The COPY statements go out as one
// simple Query message with their data written right behind it (CopyData, CopyDone per COPY) in
// the same write, instead of waiting for the server's CopyInResponse before each: the server
// reads the data from the socket when it reaches each COPY. The statements of one Query message
// run as one implicit transaction, so the COPYs of a publish (trades and quotes) are stored all
// or nothing and committed once the answer arrives; no BEGIN, SAVEPOINT or COMMIT is sent.
//
// After an error the server drops the rest of the message and ignores the CopyData and CopyDone
// still to come (protocol: "any subsequent CopyData, CopyDone, or CopyFail messages issued by the
// frontend will simply be dropped"), so the connection stays usable.
import type pg from 'pg';
import type { CopyPart } from '../driver.js';

/** Binary COPY: the signature, flags (no OIDs) and header extension length (none). */
export const BINARY_HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
/** Binary COPY: the trailer (field count -1). */
export const BINARY_TRAILER = Buffer.from([0xff, 0xff]);

const COPY_DONE = Buffer.from([0x63, 0, 0, 0, 4]);

/** The message header of type `code` with a body of `bodyBytes`. */
function messageHead(code: number, bodyBytes: number): Buffer {
  const head = Buffer.allocUnsafe(5);
  head[0] = code;
  head.writeUInt32BE(bodyBytes + 4, 1);
  return head;
}

/** What pg hands a custom query (its Submittable interface), as far as this one needs. */
interface PgConnection {
  stream: NodeJS.WritableStream & { cork(): void; uncork(): void };
}

/**
 * A pg custom query (client.query(submittable, callback)) sending the COPYs of `parts` and their
 * data in one write; its callback gets the rows each COPY stored, in the order of `parts`, or the
 * server's error (nothing stored then).
 */
class PipelinedCopy {
  private readonly counts: number[] = [];

  constructor(
    private readonly parts: readonly CopyPart[],
    /** Called once; client.query wraps it when a query timeout is configured, and may replace it. */
    public callback: (err: Error | undefined, counts?: number[]) => void,
  ) {}

  submit(connection: PgConnection): void {
    const text = this.parts.map((p) => `COPY ${p.table} (${p.columns.join(', ')}) FROM STDIN (FORMAT binary)`).join('; ');
    const sql = Buffer.from(`${text}\0`, 'utf8');
    const out = connection.stream;
    out.cork();
    out.write(messageHead(0x51, sql.length));
    out.write(sql);
    for (const p of this.parts) {
      out.write(messageHead(0x64, BINARY_HEADER.length + p.tuples.length + BINARY_TRAILER.length));
      out.write(BINARY_HEADER);
      out.write(p.tuples);
      out.write(BINARY_TRAILER);
      out.write(COPY_DONE);
    }
    out.uncork();
  }

  handleCopyInResponse(): void {} // the data is on its way already

  handleCommandComplete(msg: { text?: string }): void {
    const m = /^COPY (\d+)/.exec(msg.text ?? '');
    this.counts.push(m ? Number(m[1]) : 0);
  }

  // pg stops routing messages to a query once it reported an error (its ReadyForQuery included)
  handleError(err: Error): void {
    this.callback(err);
  }

  handleReadyForQuery(): void {
    this.callback(undefined, this.counts);
  }

  // never sent for COPY FROM; present because pg calls them on whatever query is active
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}
}

/**
 * Stores `parts` with one binary COPY each, in one round trip and one implicit transaction on
 * `client` (which must not be inside a transaction block); resolves with the rows each stored.
 */
export function copyInOneTrip(client: pg.PoolClient, parts: readonly CopyPart[]): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const query = new PipelinedCopy(parts, (err, counts) => (err ? reject(err) : resolve(counts!)));
    (client.query as unknown as (q: PipelinedCopy) => void)(query);
  });
}
