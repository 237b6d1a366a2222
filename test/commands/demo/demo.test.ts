import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { baseEnv, runCli } from '../../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'voicectl-demo-test-'));
const cleanups: string[] = [dir];
afterAll(() => {
  for (const d of cleanups) rmSync(d, { recursive: true, force: true });
});

/** A profile and environment pointing at a service that does not exist: the demo must use neither. */
function hostileEnv(configDir: string) {
  mkdirSync(configDir, { recursive: true });
  const config = JSON.stringify({ profiles: { default: { base_url: 'http://127.0.0.1:1', api_key: 'sk_real_key_do_not_use' } } });
  writeFileSync(join(configDir, 'config.json'), config);
  return { env: { ...baseEnv(configDir), VOICECTL_BASE_URL: 'http://127.0.0.1:1', VOICECTL_API_KEY: 'sk_real_key_do_not_use', HTTPS_PROXY: 'http://127.0.0.1:1' }, config };
}

/** The CSV rows of a file, parsed enough for quoted summaries with commas. */
function csvRecords(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') { cell += '"'; i++; } else if (ch === '"') quoted = false; else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') { row.push(cell); cell = ''; } else if (ch === '\n') { row.push(cell.replace(/\r$/, '')); rows.push(row); row = []; cell = ''; } else cell += ch;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

describe('voicectl demo', () => {
  it('runs a whole campaign with no set-up, prints the calls and writes the export', async () => {
    const configDir = join(dir, 'cfg');
    const { env, config } = hostileEnv(configDir);
    const out = join(dir, 'export.csv');
    const [withOut, byDefault] = await Promise.all([
      runCli(['demo', '--out', out], env),
      runCli(['demo'], hostileEnv(join(dir, 'cfg2')).env),
    ]);

    expect(withOut.stderr).not.toMatch(/\n\s+at /);
    expect(withOut.exitCode).toBe(0);
    expect(withOut.stderr).toContain('Checked leads.csv: 25 rows, 25 valid, 0 invalid');
    expect(withOut.stderr).toMatch(/Campaign "Demo: leads.csv" completed: 25 contacts/);
    expect(withOut.stdout).toMatch(/^NUMBER\s+NAME\s+OUTCOME\s+DURATION\s+SUMMARY$/m);
    expect(withOut.stdout).toMatch(/^\+919876543210\s+Priya Sharma\s+\S+/m);
    expect(withOut.stderr).toContain(`as CSV to ${out}`);

    // One row per contact, each call once, with the spreadsheet's extra columns.
    const records = csvRecords(readFileSync(out, 'utf8'));
    const [head, ...rows] = records;
    expect(head).toContain('call_id');
    expect(head).toContain('extra.customer_id');
    const ids = rows.map((r) => r[head!.indexOf('call_id')]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(rows).toHaveLength(25);
    expect(rows.map((r) => r[head!.indexOf('extra.customer_id')])).toContain('000147');

    // The user's profile was neither used nor changed.
    expect(readFileSync(join(configDir, 'config.json'), 'utf8')).toBe(config);

    expect(byDefault.exitCode).toBe(0);
    const where = /as CSV to (\S+) \(a new temporary directory\)/.exec(byDefault.stderr)?.[1];
    expect(where).toBeTruthy();
    cleanups.push(dirname(where!));
    expect(existsSync(where!)).toBe(true);
  }, 60_000);
});
