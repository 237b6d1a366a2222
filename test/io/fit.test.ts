import { describe, expect, it } from 'vitest';
import { fitWidths, ID_MIN, shortenIds, uniquePrefixLength, type Column } from '../../src/io/output.js';
import { lineId } from '../../src/text/text.js';

const columns: Column<never>[] = [
  { header: 'ID' },
  { header: 'NAME', max: 40 },
  { header: 'SUMMARY', max: 60 },
];
const texts = [['b5899227-30bc-49b8-b0b6-d8d20a7f3985', 'Renewals for the November policy holders', 'x'.repeat(80)]];

describe('fitWidths', () => {
  it('cuts only at each column\'s max when there is no terminal', () => {
    expect(fitWidths(columns, texts, undefined)).toEqual([undefined, 40, 60]);
  });

  it('cuts the widest columns that have a max until the table fits the terminal, never an id', () => {
    // 36 + 2 + 40 + 2 + 60 = 140 wide; a 100-column terminal takes 40 off the text columns.
    const w = fitWidths(columns, texts, 100);
    expect(w[0]).toBeUndefined();
    expect(36 + 2 + w[1]! + 2 + w[2]!).toBe(100);
    expect(w[1]).toBe(30); // the widest first, down to the next one, then both evenly
    expect(w[2]).toBe(30);
  });

  it('goes down to ten characters a column', () => {
    expect(fitWidths(columns, texts, 60)).toEqual([undefined, 10, 10]);
  });

  it('cuts nothing when the table would not fit even then: the lines wrap with readable names', () => {
    expect(fitWidths(columns, texts, 50)).toEqual([undefined, 40, 60]);
  });

  it('leaves a table that fits as it is', () => {
    expect(fitWidths(columns, [['id', 'short', 'also short']], 80)).toEqual([undefined, 5, 10]);
  });
});

describe('uniquePrefixLength', () => {
  it('is eight characters when eight tell the ids apart, as git shortens commit ids', () => {
    expect(uniquePrefixLength(['b5899227-30bc-49b8', '0c1d2e3f-4a5b-6c7d', 'ffc5a1b2-7c1d-4f51'])).toBe(ID_MIN);
  });

  it('grows to the first character where two ids differ, whatever their order', () => {
    expect(uniquePrefixLength(['call_planted_11', 'x', 'call_planted_12', 'call_planted_2'])).toBe(15);
    // An id that begins another is shown whole, and the other one character longer.
    expect(uniquePrefixLength(['call_planted_10', 'call_planted_1'])).toBe(15);
    expect(uniquePrefixLength(['call_000011', 'call_000010', 'call_000012'])).toBe(11);
  });

  it('counts each id once, and no empty cell', () => {
    expect(uniquePrefixLength(['abcdefghij', 'abcdefghij', '', ''])).toBe(ID_MIN);
  });
});

describe('shortenIds', () => {
  const cols: Column<never>[] = [{ header: 'ID', id: true }, { header: 'NAME', max: 40 }];
  const rows = [['b5899227-30bc-49b8-b0b6-d8d20a7f3985', 'Renewals'], ['b5899228-aaaa-49b8-b0b6-d8d20a7f3985', 'Leads']];

  it('leaves ids whole when the table fits, or in a pipe', () => {
    expect(shortenIds(cols, rows, 80)).toEqual({ texts: rows, shortened: false });
    expect(shortenIds(cols, rows, undefined)).toEqual({ texts: rows, shortened: false });
  });

  it('cuts them to the shortest prefix unique among the rows when the table is too wide', () => {
    const r = shortenIds(cols, rows, 30);
    expect(r.shortened).toBe(true);
    expect(r.texts.map((row) => row[0])).toEqual(['b5899227', 'b5899228']);
    expect(r.texts.map((row) => row[1])).toEqual(['Renewals', 'Leads']);
    expect(rows[0]![0]).toHaveLength(36);
  });
});

describe('lineId', () => {
  it('keeps a long id\'s kind and its end; a short id is whole', () => {
    expect(lineId('evt_reconciled_0123456789abcdef0123456789abcdef')).toBe('evt_…89abcdef');
    expect(lineId('6f1c2a4b-8d3e-4f5a-9b6c-7d8e9f0a1b2c')).toBe('…9f0a1b2c');
    expect(lineId('evt_fit_1')).toBe('evt_fit_1');
  });
});
