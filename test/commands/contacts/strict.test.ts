/** --strict, and the profile's strict setting: every warning about a contacts file is an error (exit 2). */
import { describe, expect, it } from 'vitest';
import { run } from '../../helpers/run.js';
import { scratch } from '../../helpers/scratch.js';

const { file, dir } = scratch('voicectl-strict-');
/** No service at this address: a request would fail the run, so exit 2 proves nothing was sent. */
const NOWHERE = { VOICECTL_BASE_URL: 'http://127.0.0.1:9', VOICECTL_API_KEY: 'sk_x' };

const CASES = [
  { what: 'a duplicate', csv: 'Name,Phone\nAsha,98765 43210\nRavi,098765 43210\n', says: '1 duplicate' },
  { what: 'a number in another country\'s style', csv: 'Name,Phone\nAsha,98765 43210\nJohn,01812-345678\n', says: 'written in another country\'s style' },
  { what: 'a row without a name', csv: 'Name,Phone\nAsha,98765 43210\n,98765 43211\n', says: '1 row without a name' },
  { what: 'no name column', csv: 'Phone,City\n98765 43210,Pune\n', says: 'no name column' },
];

describe('contacts validate --strict', () => {
  it.each(CASES)('$what: a warning (exit 0) without it, exit 2 with it', async ({ csv, says }) => {
    const path = file('leads.csv', csv);
    const plain = await run(['contacts', 'validate', path, '--default-country', 'IN']);
    expect(plain.exitCode).toBe(0);
    const strict = await run(['contacts', 'validate', path, '--default-country', 'IN', '--strict']);
    expect(strict.exitCode).toBe(2);
    expect(strict.stderr).toContain(`--strict: ${path} has a warning, which strict mode treats as errors: `);
    expect(strict.stderr).toContain(says);
    // The report is still printed in full.
    expect(strict.stdout).toContain('valid');
  });

  it('a clean file passes', async () => {
    const r = await run(['contacts', 'validate', file('ok.csv', 'Name,Phone\nAsha,98765 43210\nRavi,+1 646 555 0143\n'), '--default-country', 'IN', '--strict']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
  });

  it('more contacts than one campaign holds', async () => {
    const rows = Array.from({ length: 10_001 }, (_, i) => `P${i},+9198${String(10_000_000 + i)}`);
    const path = file('big.csv', `Name,Phone\n${rows.join('\n')}\n`);
    expect((await run(['contacts', 'validate', path])).exitCode).toBe(0);
    const strict = await run(['contacts', 'validate', path, '--strict', '--json']);
    expect(strict.exitCode).toBe(2);
    expect(strict.stderr).toContain('more contacts than one campaign holds (10,001, at most 10,000)');
    expect(JSON.parse(strict.stdout)).toMatchObject({ total_rows: 10_001, valid: 10_001 });
  });

  it('the profile\'s strict setting does the same; a bad value is refused', async () => {
    const config = dir();
    const env = { VOICECTL_CONFIG_DIR: config };
    expect((await run(['config', 'set', 'strict', 'maybe'], { env })).exitCode).toBe(2);
    expect((await run(['config', 'set', 'strict', 'yes'], { env })).exitCode).toBe(0);
    const path = file('dup.csv', CASES[0]!.csv);
    const r = await run(['contacts', 'validate', path, '--default-country', 'IN'], { env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('1 duplicate');
    expect((await run(['config', 'set', 'strict', 'false'], { env })).exitCode).toBe(0);
    expect((await run(['contacts', 'validate', path, '--default-country', 'IN'], { env })).exitCode).toBe(0);
  });
});

describe('campaign create --strict', () => {
  it('a warning stops it before any request; without --strict the dry run goes ahead', async () => {
    const path = file('leads.csv', CASES[0]!.csv);
    const args = ['campaign', 'create', '--name', 'X', '--agent', '00000000-0000-4000-8000-000000000000', '--csv', path, '--default-country', 'IN', '--dry-run'];
    const plain = await run(args, { env: NOWHERE });
    expect(plain.exitCode).toBe(0);
    const strict = await run([...args, '--strict'], { env: NOWHERE });
    expect(strict.exitCode).toBe(2);
    expect(strict.stderr).toContain('--strict: leads.csv has a warning, which strict mode treats as errors: 1 duplicate');
    expect(strict.stdout).toBe('');
  });
});
