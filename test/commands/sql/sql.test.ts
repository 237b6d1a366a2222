import { cpSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Papa from 'papaparse';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, sharedHarness } from '../../helpers/cli.js';
import { allCalls, givenFinishedCampaign } from '../../helpers/given.js';
import { tempDir, tempDirs } from '../../helpers/temp.js';
import { seedCalls } from '../../../src/sandbox/index.js';

interface FunnelRow { campaign_id: string; calls: number; dialed: number; connected: number; with_outcome: number; connect_rate: number }

// Each test runs a few voicectl processes, each loading DuckDB: slow on a busy machine.
describe('voicectl sql over a folder the export wrote', { timeout: 120_000 }, () => {
  const h = sharedHarness();
  const dir = tempDirs('voicectl-sql-');
  let folder = '';
  let calls: any[] = [];
  const campaigns: string[] = [];
  beforeAll(async () => {
    seedCalls(h.sandbox.world, h.sandbox.world.keys.get(h.sandbox.apiKey)!.org, 1200, { campaignSize: 500 });
    campaigns.push((await givenFinishedCampaign(h.api, { contacts: 20 })).id);
    // Numbers the seeded campaigns called too: the funnel counts each once over all campaigns, and once in each.
    const again = Array.from({ length: 8 }, (_, i) => ({ phone_number: `+9198${String(i * 3).padStart(8, '0')}`, name: `Again ${i}` }));
    campaigns.push((await givenFinishedCampaign(h.api, { contacts: again })).id);
    folder = join(h.dir, 'warehouse');
    const r = await h.run(['call', 'export', '--format', 'parquet', '--out', folder]);
    if (r.exitCode !== 0) throw new Error(r.stderr);
    calls = await allCalls(h.api);
  }, 120_000);
  const sql = (...args: string[]) => h.run(['sql', ...args, '--dir', folder]);

  it('counts the calls the service lists', async () => {
    const r = await sql('SELECT count(*) AS n, count(DISTINCT call_id) AS ids FROM calls', '--json');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ n: calls.length, ids: calls.length }]);
  });

  it('answers the funnel with the figures of the API\'s calls, per campaign and for all', async () => {
    const r = await sql('--query', 'funnel', '--json');
    expect(r.exitCode, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as FunnelRow[];
    const expected = (list: any[]) => {
      const connected = list.filter((c) => c.status === 'completed');
      return {
        calls: list.length,
        dialed: new Set(list.map((c) => c.phone_number)).size,
        connected: new Set(connected.map((c) => c.phone_number)).size,
        with_outcome: new Set(connected.filter((c) => c.outcome).map((c) => c.phone_number)).size,
        connect_rate: Math.round((connected.length / list.length) * 1e4) / 1e4,
      };
    };
    const ids = [...new Set(calls.map((c) => c.campaign_id as string))];
    expect(new Set(calls.map((c) => c.phone_number)).size).toBeLessThan(calls.length);
    expect(rows.map((x) => x.campaign_id).sort()).toEqual([...ids, '(all)'].sort());
    for (const id of ids) expect(rows.find((x) => x.campaign_id === id), id).toEqual({ campaign_id: id, ...expected(calls.filter((c) => c.campaign_id === id)) });
    expect(rows.at(-1)).toEqual({ campaign_id: '(all)', ...expected(calls) });
    // The campaign report counts the same contacts dialed and connected.
    const report = await h.run(['campaign', 'report', campaigns[0]!, '--format', 'json']);
    const funnel = (JSON.parse(report.stdout) as { campaigns: Array<{ funnel: { dialed: number; connected: number } }> }).campaigns[0]!.funnel;
    expect(rows.find((x) => x.campaign_id === campaigns[0])).toMatchObject({ dialed: funnel.dialed, connected: funnel.connected });
  });

  it('answers by hour in the reader\'s zone, by agent and by outcome', async () => {
    const hours = JSON.parse((await sql('--query', 'by-hour', '--tz', 'Asia/Kolkata', '--json')).stdout) as Array<{ zone: string; hour: number; calls: number }>;
    const perHour = new Map<number, number>();
    const fmt = new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Kolkata', hour: '2-digit', hourCycle: 'h23' });
    for (const c of calls) {
      const hr = Number(fmt.format(new Date(c.start_time)));
      perHour.set(hr, (perHour.get(hr) ?? 0) + 1);
    }
    expect(hours.map((x) => [x.hour, x.calls])).toEqual([...perHour].sort((a, b) => a[0] - b[0]));
    expect(new Set(hours.map((x) => x.zone))).toEqual(new Set(['Asia/Kolkata']));
    const outcomes = JSON.parse((await sql('--query', 'by-outcome', '--json')).stdout) as Array<{ outcome: string | null; calls: number }>;
    expect(outcomes.reduce((a, x) => a + x.calls, 0)).toBe(calls.length);
    expect(outcomes.find((x) => x.outcome === null)?.calls ?? 0).toBe(calls.filter((c) => !c.outcome).length);
    const agents = JSON.parse((await sql('--query', 'by-agent', '--json')).stdout) as Array<{ agent_id: string | null; calls: number }>;
    expect(agents.reduce((a, x) => a + x.calls, 0)).toBe(calls.length);
  });

  it('prints a table with times in the --tz zone, named, and CSV and JSON in UTC ISO 8601', async () => {
    const first = [...calls].sort((a, b) => Date.parse(a.start_time) - Date.parse(b.start_time) || a.call_id.localeCompare(b.call_id))[0];
    const q = 'SELECT call_id, start_time, date FROM calls ORDER BY start_time, call_id LIMIT 1';
    const table = await sql(q, '--tz', 'Asia/Kolkata', '-o', 'table');
    expect(table.exitCode, table.stderr).toBe(0);
    const local = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Kolkata', dateStyle: 'short', timeStyle: 'medium' }).format(new Date(first.start_time));
    expect(table.stdout).toContain('start_time (Asia/Kolkata)');
    expect(table.stdout).toContain(local);
    const csv = Papa.parse<Record<string, string>>((await sql(q, '-o', 'csv')).stdout, { header: true, skipEmptyLines: true }).data;
    expect(csv).toEqual([{ call_id: first.call_id, start_time: new Date(first.start_time).toISOString(), date: first.start_time.slice(0, 10) }]);
    const json = JSON.parse((await sql(q, '--json')).stdout);
    expect(json).toEqual([{ call_id: first.call_id, start_time: new Date(first.start_time).toISOString(), date: first.start_time.slice(0, 10) }]);
  });

  it('says what is wrong, exit 2, never a stack trace', async () => {
    const bad = await sql('SELEC count(*) FROM calls');
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('the query failed: Parser Error: syntax error at or near "SELEC"');
    const column = await sql('SELECT nope FROM calls');
    expect(column.exitCode).toBe(2);
    expect(column.stderr).toMatch(/the query failed: .*nope/);
    const both = await sql('SELECT 1', '--query', 'funnel');
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('Give either SQL or --query NAME, not both.');
    const neither = await sql();
    expect(neither.exitCode).toBe(2);
    const empty = await h.run(['sql', 'SELECT 1', '--dir', dir()]);
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toContain('holds no exported calls (no date=YYYY-MM-DD/*.parquet files)');
    // What the engine could have meant, and where: DuckDB's lines after the first are kept.
    expect(column.stderr).toContain('Candidate bindings:');
    expect(column.stderr).toContain('LINE 1: SELECT nope FROM calls');
    expect(column.stderr).toContain(`voicectl sql "DESCRIBE calls" --dir ${folder} lists its columns`);
    const name = await sql('--query', 'by-day');
    expect(name.exitCode).toBe(2);
    const noDir = await h.run(['sql', '--query', 'funnel']);
    expect(noDir.exitCode).toBe(2);
    expect(noDir.stderr).toContain('sql needs --dir DIR: the folder that call export --format parquet --out DIR wrote.');
    expect(noDir.stderr).toContain('voicectl sql --query funnel --dir calls/');
    const missing = await h.run(['sql', 'SELECT 1', '--dir', join(h.dir, 'nowhere')]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain(`${join(h.dir, 'nowhere')} does not exist.`);
    writeFileSync(join(h.dir, 'a-file'), 'not a folder\n');
    const aFile = await h.run(['sql', 'SELECT 1', '--dir', join(h.dir, 'a-file'), '--json']);
    expect(aFile.exitCode).toBe(2);
    expect(JSON.parse(aFile.stderr).error).toBe(`${join(h.dir, 'a-file')} is a file: --dir takes the folder of an export.`);
    for (const r of [bad, column, both, neither, empty, name, noDir, missing, aFile]) expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('without DuckDB installed, exits 2 with the install command, while the Parquet export still works', async () => {
    // voicectl as installed with --omit=optional: its own files, every dependency but @duckdb/*.
    const root = resolve(import.meta.dirname, '../../..');
    const t = tempDir('voicectl-no-duckdb-');
    try {
      for (const f of ['bin', 'dist', 'package.json']) cpSync(join(root, f), join(t.dir, f), { recursive: true });
      mkdirSync(join(t.dir, 'node_modules'));
      for (const name of readdirSync(join(root, 'node_modules'))) {
        if (name === '@duckdb' || name === '.bin') continue;
        symlinkSync(join(root, 'node_modules', name), join(t.dir, 'node_modules', name));
      }
      const env = { ...baseEnv(h.configDir), VOICECTL_BASE_URL: h.sandbox.url, VOICECTL_API_KEY: h.sandbox.apiKey };
      const bin = join(t.dir, 'bin', 'voicectl.js');
      const { execa } = await import('execa');
      const run = async (args: string[]) => {
        const x = await execa(process.execPath, [bin, ...args], { env, extendEnv: false, reject: false });
        return { exitCode: x.exitCode, stdout: String(x.stdout), stderr: String(x.stderr) };
      };
      const missing = await run(['sql', '--query', 'funnel', '--dir', folder]);
      expect(missing.exitCode).toBe(2);
      expect(missing.stderr).toContain('voicectl sql needs DuckDB (@duckdb/node-api), which is not installed.');
      expect(missing.stderr).toContain('npm install --global @duckdb/node-api');
      expect(missing.stderr).not.toMatch(/\n\s+at /);
      const other = join(dir(), 'without-duckdb');
      const exported = await run(['call', 'export', '--format', 'parquet', '--out', other]);
      expect(exported.exitCode, exported.stderr).toBe(0);
      expect(exported.stderr).toContain(`Exported ${calls.length.toLocaleString('en-US')} calls`);
    } finally {
      t.remove();
    }
  }, 120_000);
});
