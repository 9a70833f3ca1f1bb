// PostgreSQL's COPY text format for strings, without the driver (the flat-file reader thread
// encodes rows with it).

const COPY_SPECIAL = /[\\\t\n\r]/;
const COPY_SPECIAL_ALL = /[\\\t\n\r]/g;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A text value in COPY text format: backslash, tab, newline and carriage return escaped. */
export function copyTextString(v: string): string {
  return COPY_SPECIAL.test(v) ? v.replace(COPY_SPECIAL_ALL, (c) => COPY_ESCAPES[c]!) : v;
}
