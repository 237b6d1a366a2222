/**
 * A large real sheet: 800,000 rows of phone numbers, 6.5 MB on disk and under the
 * workbook's size bound, once exhausted the heap ("JavaScript heap out of memory", exit
 * 134, a native stack). The rows are counted while the sheet is checked, and a sheet past
 * what voicectl reads from a workbook is refused cleanly (exit 2), naming the bound and
 * --split. The workbook is made here, not kept in fixtures/.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_WORKBOOK_ROWS } from '../../src/contacts/workbook-guard.js';
import { workbook } from '../contacts/zip-writer.js';
import { tempDir } from '../helpers/temp.js';
import { eachHostile } from './client-harness.js';

const { start, closeAfter } = eachHostile();

function rows(n: number): string[][] {
  // One column: 800,000 rows of it inflate to about 56 MB, under the workbook's size bound (64 MB).
  const out: string[][] = [['phone_number']];
  for (let i = 1; i < n; i++) out.push([`+9198${String(10_000_000 + i).slice(-8)}`]);
  return out;
}

/** A server that answers nothing (nothing may reach it), and a workbook of `n` rows, header included, in a folder removed after the test. */
async function givenWorkbook(name: string, n: number) {
  const h = await start(() => {});
  const t = tempDir();
  closeAfter({ close: async () => t.remove() });
  const file = join(t.dir, name);
  writeFileSync(file, workbook(rows(n)));
  return { h, file };
}

describe('a workbook with more rows than a campaign can use', () => {
  it('800,000 rows: refused with exit 2 naming the bound and --split, not a heap crash', async () => {
    const { h, file } = await givenWorkbook('big.xlsx', 800_000);
    for (const args of [['contacts', 'validate', file], ['campaign', 'create', '--csv', file, '--agent', 'Desk', '--name', 'Big', '--split', '--dry-run']]) {
      const r = await h.run(args);
      expect(r.stderr).not.toMatch(/heap out of memory|FATAL ERROR|\n\s+at /);
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain(`big.xlsx has a sheet of more than ${MAX_WORKBOOK_ROWS.toLocaleString('en-US')} rows`);
      expect(r.stderr).toMatch(/--split/);
    }
    expect(h.seen).toEqual([]);
  }, 120_000);

  it('a sheet under the bound is still read', async () => {
    const { h, file } = await givenWorkbook('edge.xlsx', 12_001);
    const r = await h.run(['contacts', 'validate', file, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ total_rows: 12_000 });
  }, 120_000);
});
