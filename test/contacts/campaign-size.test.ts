import { describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { scratch } from '../helpers/scratch.js';

const t = scratch();
const file = (text: string) => t.file('leads.csv', text);
const AGENT = '11111111-2222-3333-4444-555555555555';
// Nothing here may reach a service: these commands stop, or dry-run, before any request.
const env = { VOICECTL_BASE_URL: 'http://127.0.0.1:9', VOICECTL_API_KEY: 'sk_none' };
const phone = (i: number) => `98${String(10_000_000 + i).slice(-8)}`;
const rows = (from: number, n: number) => Array.from({ length: n }, (_, k) => `Lead ${from + k},${phone(from + k)}\n`).join('');

/** The command the advice shows, as argv, with NAME and AGENT filled in. */
function advised(stderr: string): string[] {
  const line = stderr.split('\n').find((l) => l.trim().startsWith('voicectl campaign create'));
  expect(line).toBeDefined();
  return line!.trim().split(/\s+/).slice(1).map((a) => (a === 'NAME' ? 'Big list' : a === 'AGENT' ? AGENT : a.replace(/^'(.*)'$/, '$1')));
}

describe('more valid rows than one campaign takes', () => {
  it('contacts validate says a campaign takes at most 10,000 and shows the --split command, which works', async () => {
    // 10,050 numbers, 30 of them written twice: 10,050 contacts to send.
    const path = file(`name,phone\n${rows(0, 10_050)}${rows(0, 30)}`);
    const r = await run(['contacts', 'validate', path, '--default-country', 'IN'], { env });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('10,080 rows');
    expect(r.stderr).toContain('warning: ' + path + ' has 10,050 contacts to send, and the service takes at most 10,000 contacts per campaign, so they do not fit in one. --split creates 2 campaigns');
    // Not a clean bill: no check mark.
    expect(r.stdout).toMatch(/^! .*10,080 rows, 10,080 valid, 0 invalid/);
    expect(r.stdout).not.toContain('✓');
    const argv = advised(r.stderr);
    expect(argv).toEqual(['campaign', 'create', '--name', 'Big list', '--agent', AGENT, '--csv', path, '--default-country', 'IN', '--split']);

    const dry = await run([...argv, '--dry-run'], { env });
    expect(dry.exitCode).toBe(0);
    const bodies = JSON.parse(dry.stdout) as Array<{ name: string; contacts: unknown[] }>;
    expect(bodies.map((b) => [b.name, b.contacts.length])).toEqual([['Big list (1/2)', 5025], ['Big list (2/2)', 5025]]);
  });

  it('counts what would be sent: exactly 10,000 after dropping duplicates needs no split', async () => {
    const path = file(`name,phone\n${rows(0, 10_000)}${rows(0, 5)}`);
    const r = await run(['contacts', 'validate', path, '--default-country', 'IN'], { env });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).not.toContain('--split');
    expect(r.stdout).toMatch(/^✓ /);
    const kept = await run(['contacts', 'validate', path, '--default-country', 'IN', '--keep-duplicates', '--json'], { env });
    expect(kept.stderr).toContain('has 10,005 contacts to send');
    expect(kept.stderr).toContain('--keep-duplicates --split');
    expect(JSON.parse(kept.stdout)).toMatchObject({ total_rows: 10_005, valid: 10_005, duplicates: 5 });
  });
});

describe('the --skip-invalid hint', () => {
  // 6 valid rows, of which 2 repeat an earlier number, and 2 invalid rows: 4 contacts would be sent.
  const CSV = `name,phone\n${rows(0, 4)}Bad One,12\n${rows(0, 2)}Bad Two,not a number\n`;

  it('states how many contacts --skip-invalid really sends, duplicates dropped', async () => {
    const path = file(CSV);
    const r = await run(['campaign', 'create', '--name', 'X', '--agent', AGENT, '--csv', path, '--default-country', 'IN'], { env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('add --skip-invalid to create the campaign with the other 4 contacts (the valid rows less 2 repeated numbers)');

    const skip = await run(['campaign', 'create', '--name', 'X', '--agent', AGENT, '--csv', path, '--default-country', 'IN', '--skip-invalid', '--dry-run'], { env });
    expect(skip.exitCode).toBe(0);
    expect((JSON.parse(skip.stdout) as { contacts: unknown[] }).contacts).toHaveLength(4);
  });

  it('contacts validate gives the same count', async () => {
    const r = await run(['contacts', 'validate', file(CSV), '--default-country', 'IN'], { env });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toContain('campaign create --skip-invalid, which sends the other 4 contacts: the valid rows less 2 repeated numbers');
  });
});
