/**
 * The forward ledger (`<log>.forwards`) is kept as the log is: a ledger that cannot be
 * written is said once (its silence would make `--replay --unforwarded` re-send what the
 * app acknowledged), a torn last line is ended at start so no record joins onto it, and a
 * restart counts the logged events the app never acknowledged and names the replay command.
 */
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../webhooks/capture-server.js';
import { LISTEN, event, SECRET, sendEvent, startListen, tempDir, type Running } from '../webhooks/receiver-harness.js';
import { waitFor } from '../helpers/given.js';
import { start } from '../helpers/run.js';

let tmp: ReturnType<typeof tempDir>;
let env: Record<string, string>;
let running: Running | undefined;
let app: Receiver | undefined;
const sleep = async () => {};

beforeEach(() => {
  tmp = tempDir();
  env = { VOICECTL_CONFIG_DIR: tmp.dir };
  running = undefined;
  app = undefined;
});

afterEach(async () => {
  await running?.interrupt();
  await app?.close();
  tmp.remove();
});

const lines = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

function parsed(file: string): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const l of lines(file)) {
    try {
      out.push(JSON.parse(l) as Record<string, unknown>);
    } catch {
      // a fragment
    }
  }
  return out;
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

describe('the forward ledger', () => {
  it('says once, on stderr, that it cannot be written, and why that matters for --unforwarded', async () => {
    app = await startReceiver(() => 200);
    const log = join(tmp.dir, 'events.ndjson');
    // The ledger's path leads into a folder that does not exist: every append fails.
    symlinkSync(join(tmp.dir, 'gone', 'forwards'), `${log}.forwards`);
    running = await startListen(['--secret', SECRET, '--log', log, '--forward-to', `${app.url}/`], env, { sleep });
    await sendEvent(running.port);
    await sendEvent(running.port);
    await app.waitFor(2);
    const r = running;
    await waitFor(() => (/Cannot write the forward ledger/.test(r.stderr()) ? true : undefined));
    running = undefined;
    await r.interrupt();
    const err = r.stderr();
    expect(count(err, 'Cannot write the forward ledger')).toBe(1);
    expect(err).toContain(`${log}.forwards`);
    expect(err).toMatch(/would re-send events the app already took/);
    expect(err).toMatch(/2 forward outcomes were not recorded/);
    expect(r.stdout()).not.toMatch(/Cannot write/);
  });

  it('ends a torn last line at start, so the next record is whole and counts', async () => {
    app = await startReceiver(() => 200);
    const log = join(tmp.dir, 'events.ndjson');
    const ledger = `${log}.forwards`;
    writeFileSync(ledger, '{"id":"evt_old","ok":true,"status":200,"attempts":1,"at":"2026-11-26T00:00:00Z"}\n{"id":"evt_torn","ok":tr');
    running = await startListen(['--secret', SECRET, '--log', log, '--forward-to', `${app.url}/`], env, { sleep });
    expect(running.stderr()).toContain(`ended in a partial line (${'{"id":"evt_torn","ok":tr'.length} bytes`);
    const e = await sendEvent(running.port);
    const rec = await waitFor(() => parsed(ledger).find((x) => x.id === e.id));
    expect(rec).toMatchObject({ ok: true, status: 200 });
    expect(lines(ledger)).toEqual([expect.stringContaining('evt_old'), '{"id":"evt_torn","ok":tr', expect.stringContaining(e.id)]);
  });

  it('--replay --unforwarded ends a torn ledger line before recording, so a second replay sends nothing', async () => {
    app = await startReceiver(() => 200);
    const log = join(tmp.dir, 'events.ndjson');
    const a = event();
    const b = event();
    writeFileSync(log, `${a.body}\n${b.body}\n`);
    writeFileSync(`${log}.forwards`, '{"id":"evt_cut","ok":fal');
    const args = ['listen', '--replay', log, '--forward-to', `${app.url}/`, '--unforwarded', '--secret', SECRET];
    const first = start(args, { ...LISTEN, env });
    expect(await first.done).toBe(0);
    expect(app.received.map((r) => r.json?.id)).toEqual([a.id, b.id]);
    expect(first.stderr()).toMatch(/ended in a partial line/);
    const again = start(args, { ...LISTEN, env });
    expect(await again.done).toBe(0);
    expect(app.received).toHaveLength(2);
  });

  it('at start, counts the logged events with no acknowledged forward and prints the replay command', async () => {
    app = await startReceiver(() => 200);
    const log = join(tmp.dir, 'events.ndjson');
    const acked = event();
    const refused = event();
    const never = [event(), event()];
    const other = event('agent.updated');
    writeFileSync(log, [acked, refused, ...never, other].map((e) => e.body).join('\n') + '\n');
    writeFileSync(`${log}.forwards`, [
      { id: acked.id, ok: true, status: 200, attempts: 1, at: '2026-11-26T00:00:00Z' },
      { id: refused.id, ok: false, status: 500, attempts: 6, at: '2026-11-26T00:00:00Z', error: 'it answered 500' },
    ].map((r) => JSON.stringify(r)).join('\n') + '\n');
    const target = `${app.url}/hooks`;
    running = await startListen(['--secret', SECRET, '--log', log, '--forward-to', target], env, { sleep });
    const err = running.stderr();
    expect(err).toMatch(/4 events in \S+ have no acknowledged forward in \S+ \(3 never forwarded, 1 not acknowledged by the app\)/);
    expect(err).toContain(`voicectl listen --replay ${log} --forward-to ${target} --unforwarded`);
    await running.interrupt();
    running = undefined;

    // With --events, only the events of those types, and the command keeps the filter.
    const filtered = await startListen(['--secret', SECRET, '--log', log, '--forward-to', target, '--events', 'call.ended'], env, { sleep });
    running = filtered;
    expect(filtered.stderr()).toMatch(/3 events in \S+ have no acknowledged forward/);
    expect(filtered.stderr()).toContain(`voicectl listen --replay ${log} --forward-to ${target} --unforwarded --events call.ended`);
  });

  it('says nothing at start when the app acknowledged every logged event', async () => {
    app = await startReceiver(() => 200);
    const log = join(tmp.dir, 'events.ndjson');
    const e = event();
    writeFileSync(log, `${e.body}\n`);
    writeFileSync(`${log}.forwards`, `${JSON.stringify({ id: e.id, ok: true, status: 200, attempts: 1, at: '2026-11-26T00:00:00Z' })}\n`);
    running = await startListen(['--secret', SECRET, '--log', log, '--forward-to', `${app.url}/`], env, { sleep });
    expect(running.stderr()).not.toMatch(/no acknowledged forward|partial line|Cannot/);
  });
});
