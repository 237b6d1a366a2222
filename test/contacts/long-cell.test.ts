import { describe, expect, it } from 'vitest';
import { MAX_ROW_CHARS } from '../../src/contacts/csv.js';
import { validateContactsFile } from '../../src/contacts/validate.js';
import { UsageError } from '../../src/errors.js';
import { run } from '../helpers/run.js';
import { scratch } from '../helpers/scratch.js';

const t = scratch();
const file = (text: string) => t.file('leads.csv', text);
async function failure(path: string): Promise<UsageError> {
  const err = await validateContactsFile(path, { defaultCountry: 'IN', workers: 0 }).then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(UsageError);
  return err as UsageError;
}

const HEAD = 'name,phone,notes\nAsha,9876543210,short\n';
const TAIL = 'Ravi,9876543211,fine\n'.repeat(100);
const big = (n: number) => 'x'.repeat(n);

describe('cells longer than voicectl reads', () => {
  it('a quoted cell over the limit is too long, with its row and column, not an unclosed quote', async () => {
    const err = await failure(file(`${HEAD}Priya,9876543212,"${big(5 * 1024 * 1024)}, with ""quotes"" and a comma"\n${TAIL}`));
    expect(err.message).toBe('leads.csv: row 3 has a cell that is too long: column C holds 5.0 MB of text, and voicectl reads cells of up to 4 MB.');
  });

  it('an unquoted cell over the limit, in the middle of a row, too', async () => {
    const err = await failure(file(`${HEAD}${TAIL}Priya,${big(MAX_ROW_CHARS + 10)},9876543212\n`));
    expect(err.message).toMatch(/^leads\.csv: row 103 has a cell that is too long: column B holds 4\.0 MB of text/);
  });

  it('a row whose cells are together over the limit', async () => {
    const cells = Array.from({ length: 5 }, () => `"${big(1024 * 1024)}"`).join(',');
    const err = await failure(file(`name,phone,a,b,c,d,e\nAsha,9876543210,${cells}\n`));
    expect(err.message).toBe('leads.csv: row 2 is too long: its cells hold more than 4 MB of text together, and voicectl reads rows of up to 4 MB.');
  });

  it('a quote that never closes is still reported as one', async () => {
    const err = await failure(file(`${HEAD}Priya,9876543212,"never closed\n${'P,9876543213,notes\n'.repeat(300_000)}`));
    expect(err.message).toBe('leads.csv: the quote that opens in row 3 is never closed, so every row after it would be read as one cell.');
  });

  it('a long cell under the limit is read whole', async () => {
    const note = big(3 * 1024 * 1024);
    const r = await validateContactsFile(file(`${HEAD}Priya,9876543212,"${note}"\n`), { defaultCountry: 'IN', workers: 0 });
    expect(r.contacts[1]!.extra).toEqual({ notes: note });
  });

  it('is exit 2 with the message from contacts validate', async () => {
    const r = await run(['contacts', 'validate', file(`${HEAD}Priya,9876543212,"${big(5 * 1024 * 1024)}"\n`), '--default-country', 'IN']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('row 3 has a cell that is too long');
  });
});
