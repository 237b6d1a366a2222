/**
 * Numbers written the way another country writes its own, read with --default-country:
 * "(646) 555-0143" under IN is also a valid Indian mobile, and would be dialled in India.
 */
import { describe, expect, it } from 'vitest';
import { NationalStyle } from '../../src/contacts/national-style.js';
import { run } from '../helpers/run.js';
import { scratch } from '../helpers/scratch.js';

const { file } = scratch('voicectl-style-');

describe('NationalStyle', () => {
  const india = new NationalStyle('IN');

  it.each(['(646) 555-0143', '646-555-0143', '(212) 555-0198'])('%j under IN is the United States\' style', (cell) => {
    expect(india.countriesOf(cell)?.[0]).toBe('US');
  });

  it.each(['98765 43210', '098765 43210', '98765-43210', '9876543210', '(022) 2345 6789', '022-23456789', '+1 (646) 555-0143', '0091 98765 43210', 'call 98765 43210'])(
    '%j is not another country\'s style under IN', (cell) => {
      expect(india.countriesOf(cell)).toBeUndefined();
    },
  );

  it('Indian numbers under US are India\'s style', () => {
    expect(new NationalStyle('US').countriesOf('098765 43210')).toEqual(['IN']);
  });
});

describe('the warning', () => {
  const CSV = 'Customer Name,Phone\nAsha,98765 43210\nJohn,(646) 555-0143\nMary,646-555-0199\nRavi,98100 12345\nBob,(917) 555-0110\n';

  it('contacts validate: count, rows, what they were read as, and how to read them as US numbers', async () => {
    const path = file('mixed.csv', CSV);
    const r = await run(['contacts', 'validate', path, '--default-country', 'IN']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(`warning: ${path}: 3 numbers are written the way United States (+1)`);
    expect(r.stderr).toContain('(such as "(646) 555-0143", rows 3, 4, 6), and they were read as numbers of India (+91). If they are numbers of United States, pass --default-country US to read them so, or write them with +1 in front.');

    const us = await run(['contacts', 'validate', file('us.csv', 'Name,Phone\nJohn,(646) 555-0143\nMary,646-555-0199\n'), '--default-country', 'US', '--json']);
    expect(us.exitCode).toBe(0);
    expect(us.stderr).toBe('');
  });

  it('campaign create --csv warns the same way before anything is sent', async () => {
    const r = await run(['campaign', 'create', '--name', 'X', '--agent', '00000000-0000-4000-8000-000000000000', '--csv', file('leads.csv', CSV), '--default-country', 'IN', '--dry-run'],
      { env: { VOICECTL_BASE_URL: 'http://127.0.0.1:9', VOICECTL_API_KEY: 'sk_x' } });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('warning: leads.csv: 3 numbers are written the way United States (+1)');
  });
});
