/** `voicectl trigger` against `voicectl listen`, both as the built binary. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, runCli } from '../../helpers/cli.js';
import { eventually, readLog, spawnListen, type ListenProcess } from '../../e2e/listen-helpers.js';

const SECRET = 'whsec_trigger_e2e_5f1c';
let dir: string;
let env: Record<string, string>;
let listener: ListenProcess;
let log: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'voicectl-trigger-'));
  env = baseEnv(dir);
  log = join(dir, 'events.ndjson');
  listener = await spawnListen(['--port', '0', '--secret', SECRET, '--log', log], env);
});
afterAll(async () => {
  await listener?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('trigger against listen', () => {
  it('sends each event type correctly signed; listen accepts and logs them', async () => {
    for (const type of ['call.ended', 'call.recording_ready', 'campaign.completed', 'ping']) {
      const r = await runCli(['trigger', type, '--to', `http://127.0.0.1:${listener.port}/`, '--secret', SECRET], env);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^${type.replace('.', '\\.')} evt_\\S+ → http://127\\.0\\.0\\.1:\\d+/: 200 in \\d+ ms`));
    }
    const logged = await eventually(() => {
      const events = readLog(log);
      return events.length >= 4 ? events : undefined;
    });
    expect(logged.map((e) => e.type)).toEqual(['call.ended', 'call.recording_ready', 'campaign.completed', 'ping']);
    expect(logged[1]!.data.has_recording).toBe(true);
  });

  it('replaces data with --data and reports JSON with --json', async () => {
    const data = join(dir, 'data.json');
    writeFileSync(data, JSON.stringify({ call_id: 'call_custom', outcome: 'callback_requested' }));
    const r = await runCli(['trigger', 'call.ended', '--to', `http://localhost:${listener.port}/hook`, '--secret', SECRET, '--data', data, '--json'], env);
    expect(r.exitCode, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ status: 200, ok: true, event: { type: 'call.ended', data: { call_id: 'call_custom', outcome: 'callback_requested' } } });
    await eventually(() => (readLog(log).some((e) => e.data.call_id === 'call_custom') ? true : undefined));
  });

  it('exits 1 when the receiver rejects the event, showing its answer', async () => {
    const r = await runCli(['trigger', 'ping', '--to', `http://127.0.0.1:${listener.port}/`, '--secret', 'whsec_not_this_one'], env);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/: 401 in \d+ ms/);
    expect(r.stderr).toMatch(/signature_mismatch/);
    expect(listener.stderr()).toMatch(/401\s+rejected ping/);
  });

  it('exits 1 when nothing answers, and 2 for bad input', async () => {
    const down = await runCli(['trigger', 'ping', '--to', 'http://127.0.0.1:9/', '--secret', SECRET], env);
    expect(down.exitCode).toBe(1);
    expect(down.stderr).toMatch(/did not answer: connection refused/);
    expect((await runCli(['trigger', 'call.started', '--to', 'http://127.0.0.1:9/', '--secret', SECRET], env)).exitCode).toBe(2);
    expect((await runCli(['trigger', 'ping', '--to', 'http://127.0.0.1:9/'], env)).exitCode).toBe(2);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '[1, 2]');
    const r = await runCli(['trigger', 'ping', '--to', 'http://127.0.0.1:9/', '--secret', SECRET, '--data', bad], env);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/must hold a JSON object/);
  });
});
