import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvError, CsvReader, parseCsvLine } from '../../src/ingest/csv.js';
import { parseDecimal } from '../../src/ingest/flatfile.js';

interface Record {
  line: number;
  fields?: string[];
  error?: string;
  raw: string;
}

async function readAll(pieces: Array<string | Buffer>, maxLineBytes?: number): Promise<Record[]> {
  async function* source(): AsyncGenerator<Buffer> {
    for (const piece of pieces) yield typeof piece === 'string' ? Buffer.from(piece) : piece;
  }
  const out: Record[] = [];
  for await (const chunk of new CsvReader(source(), { maxLineBytes })) {
    while (chunk.next()) {
      out.push(
        chunk.error === undefined
          ? { line: chunk.line, fields: chunk.fields(), raw: chunk.raw() }
          : { line: chunk.line, error: chunk.error, raw: chunk.raw() },
      );
    }
  }
  return out;
}

/** Every way of cutting `text` into two or three byte pieces gives the same records. */
async function readCutEverywhere(text: string): Promise<Record[]> {
  const bytes = Buffer.from(text);
  const whole = await readAll([bytes]);
  for (let i = 0; i <= bytes.length; i++) {
    const j = Math.min(bytes.length, i + 3);
    expect(await readAll([bytes.subarray(0, i), bytes.subarray(i, j), bytes.subarray(j)])).toEqual(whole);
  }
  return whole;
}

describe('CsvReader', () => {
  it('splits unquoted lines and numbers them from 1', async () => {
    expect(await readAll(['a,b,c\n1,2,3\n'])).toEqual([
      { line: 1, fields: ['a', 'b', 'c'], raw: 'a,b,c' },
      { line: 2, fields: ['1', '2', '3'], raw: '1,2,3' },
    ]);
  });

  it('keeps empty fields, including leading and trailing ones', async () => {
    expect((await readAll([',a,,b,\n']))[0]!.fields).toEqual(['', 'a', '', 'b', '']);
  });

  it('unquotes RFC 4180 fields with embedded commas and doubled quotes', async () => {
    const records = await readAll(['A,"12,37",x\n"say ""hi""",,"",z\n']);
    expect(records.map((r) => r.fields)).toEqual([
      ['A', '12,37', 'x'],
      ['say "hi"', '', '', 'z'],
    ]);
  });

  it('handles CRLF line ends, quoted or not, and a last line with no line end', async () => {
    const records = await readAll(['h1,h2\r\n1,"2,3"\r\n4,5']);
    expect(records.map((r) => [r.line, r.fields])).toEqual([
      [1, ['h1', 'h2']],
      [2, ['1', '2,3']],
      [3, ['4', '5']],
    ]);
  });

  it('skips blank lines but still counts them', async () => {
    const records = await readAll(['a\n\n\r\nb\n\n']);
    expect(records.map((r) => [r.line, r.fields])).toEqual([
      [1, ['a']],
      [4, ['b']],
    ]);
  });

  it('skips a UTF-8 byte order mark and decodes UTF-8 split across buffers', async () => {
    const records = await readCutEverywhere('\uFEFFticker,name\nX,Société Générale\n');
    expect(records.map((r) => r.fields)).toEqual([
      ['ticker', 'name'],
      ['X', 'Société Générale'],
    ]);
  });

  it('gives the same records and line numbers wherever the byte stream is cut', async () => {
    const text = 'a,b\r\n"1,2",""""\n\nx,"y"\r\nlast,"q"';
    const records = await readCutEverywhere(text);
    expect(records.map((r) => [r.line, r.fields])).toEqual([
      [1, ['a', 'b']],
      [2, ['1,2', '"']],
      [4, ['x', 'y']],
      [5, ['last', 'q']],
    ]);
  });

  it('reports malformed quoting on its own line and carries on', async () => {
    const records = await readAll(['ok,1\n"open,2\nx"y,3\n"a"b,4\nok,5\n']);
    expect(records.map((r) => [r.line, r.error ?? r.fields])).toEqual([
      [1, ['ok', '1']],
      [2, 'unterminated quoted field'],
      [3, 'quote inside unquoted field'],
      [4, 'unexpected character after closing quote'],
      [5, ['ok', '5']],
    ]);
    expect(records[1]!.raw).toBe('"open,2');
  });

  it('handles lines of many fields', async () => {
    const line = Array.from({ length: 500 }, (_, i) => (i % 2 ? `"${i},x"` : String(i))).join(',');
    const [record] = await readAll([`${line}\n`]);
    expect(record!.fields).toHaveLength(500);
    expect(record!.fields![499]).toBe('499,x');
  });

  it('refuses to buffer a line longer than the limit', async () => {
    await expect(readAll(['ok\n', 'x'.repeat(100), 'y'.repeat(100)], 150)).rejects.toThrow(
      new CsvError(2, 'line longer than 150 bytes'),
    );
  });

  it('counts lines a consumer did not read', async () => {
    async function* source(): AsyncGenerator<Buffer> {
      yield Buffer.from('1\n2\n3\n');
      yield Buffer.from('4\n');
    }
    const reader = new CsvReader(source());
    const seen: number[] = [];
    for await (const chunk of reader) {
      chunk.next();
      seen.push(chunk.line);
    }
    expect(seen).toEqual([1, 4]);
    expect(reader.linesRead).toBe(4);
  });
});

describe('parseCsvLine', () => {
  it('splits one line and throws CsvError on bad quoting', () => {
    expect(parseCsvLine('ticker,"12,37",')).toEqual(['ticker', '12,37', '']);
    expect(() => parseCsvLine('a,"b')).toThrow(CsvError);
  });
});

describe('parseDecimal', () => {
  const parse = (s: string): number => parseDecimal(`,${s},`, 1, s.length + 1);

  it('equals Number() for every decimal string', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true, min: 0 }), (x) => {
        expect(Object.is(parse(String(x)), Number(String(x)))).toBe(true);
      }),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(fc.stringMatching(/^\d{1,20}(\.\d{0,25})?$/), (s) => {
        expect(parse(s)).toBe(Number(s));
      }),
      { numRuns: 5000 },
    );
  });

  it('refuses what Number() would wrongly accept', () => {
    for (const s of ['', ' ', '.', '0x1f', ' 12', '12 ', 'Infinity', '1,5', '1.2.3', 'abc', '1e', '--1']) {
      expect(parse(s), JSON.stringify(s)).toBeNaN();
    }
    expect(parse('1.5e3')).toBe(1500);
    expect(parse('-2.5')).toBe(-2.5);
    expect(parse('.25')).toBe(0.25);
  });
});
