/**
 * Every fixture under fixtures/contacts/ against the report (or the file-level error)
 * in its <name>.expected.json: exact row numbers, columns, values and reasons.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { validateContactsFile, type Report, type ValidateOptions } from '../../src/contacts/index.js';
import { UsageError } from '../../src/errors.js';

const dir = fileURLToPath(new URL('../../fixtures/contacts/', import.meta.url));

interface Expected {
  options: ValidateOptions;
  report?: Report;
  error?: string;
}

const files = readdirSync(dir);
const cases = files
  .filter((f) => f.endsWith('.expected.json'))
  .map((f) => {
    const base = f.replace(/\.expected\.json$/, '');
    const input = files.find((g) => g !== f && g.startsWith(`${base}.`) && !g.endsWith('.json'));
    return { name: base, input, expected: JSON.parse(readFileSync(dir + f, 'utf8')) as Expected };
  });

describe('contact fixtures', () => {
  it('has an expected report for every fixture, and a fixture for every expected report', () => {
    const inputs = files.filter((f) => !f.endsWith('.json') && f !== 'README.md');
    expect(cases.map((c) => c.input).sort()).toEqual(inputs.sort());
    expect(cases.length).toBeGreaterThanOrEqual(20);
  });

  for (const c of cases) {
    it(`${c.input}: ${c.expected.error ? 'file-level error' : `${c.expected.report!.invalid} invalid of ${c.expected.report!.total_rows}`}`, async () => {
      const run = validateContactsFile(dir + c.input!, { ...c.expected.options, workers: 0 });
      if (c.expected.error !== undefined) {
        const err = await run.then(() => undefined, (e: unknown) => e);
        expect(err).toBeInstanceOf(UsageError);
        expect((err as Error).message).toBe(c.expected.error);
        return;
      }
      const { report } = await run;
      expect(report).toEqual(c.expected.report);
      expect(report.valid + report.invalid).toBe(report.total_rows);
      expect(report.errors).toHaveLength(report.invalid);
    });
  }
});
