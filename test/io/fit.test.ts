import { describe, expect, it } from 'vitest';
import { fitWidths, type Column } from '../../src/io/output.js';

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
