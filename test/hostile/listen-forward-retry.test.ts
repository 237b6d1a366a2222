/**
 * With --log, a forward the app does not acknowledge is retried with backoff (bounded),
 * every outcome is recorded beside the log, and `--replay --unforwarded` re-sends exactly
 * the events the app never acknowledged.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../webhooks/capture-server.js';
import { LISTEN, SECRET, sendEvent, startListen, tempDir, type Running } from '../webhooks/receiver-harness.js';
import { waitFor } from '../helpers/given.js';
import { start } from '../helpers/run.js';

let tmp: ReturnType<typeof tempDir>;
let env: Record<string, string>;
let running: Running | undefined;
let app: Receiver | undefined;
/** Backoff waits, recorded and skipped. */
let waits: number[];
const sleep = async (ms: number) => {
  waits.push(ms);
};

beforeEach(() => {
  tmp = tempDir();
  env = { VOICECTL_CONFIG_DIR: tmp.dir };
  running = undefined;
  app = undefined;
  waits = [];
});

afterEach(async () => {
  await running?.interrupt();
  await app?.close();
  tmp.remove();
});

const records = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) : []);

describe('forwarding with --log', () => {
  it('retries a forward the app refused, with growing waits, until the app acknowledges it', async () => {
    app = await startReceiver((_req, n) => (n < 2 ? 503 : 200));
    const log = join(tmp.dir, 'events.ndjson');
    running = await startListen(['--secret', SECRET, '--log', log, '--forward-to', `${app.url}/hooks`], env, { sleep });
    const e = await sendEvent(running.port);
    expect(e.status).toBe(200);
    await app.waitFor(3);
    const ok = await waitFor(() => records(`${log}.forwards`).find((r) => r.ok === true));
    expect(ok).toMatchObject({ id: e.id, ok: true, status: 200, attempts: 3 });
    expect(app.received.every((r) => r.raw.toString('utf8') === e.sent)).toBe(true);
    expect(waits).toHaveLength(2);
    expect(waits[1]!).toBeGreaterThan(waits[0]!);
  });

  it('gives up after a bounded number of attempts, says how to re-send, and --replay --unforwarded sends only those', async () => {
    let up = true;
    app = await startReceiver(() => (up ? 200 : 500));
    const log = join(tmp.dir, 'events.ndjson');
    const target = `${app.url}/hooks`;
    running = await startListen(['--secret', SECRET, '--log', log, '--forward-to', target], env, { sleep });
    const delivered = await sendEvent(running.port);
    await waitFor(() => records(`${log}.forwards`).find((r) => r.id === delivered.id));
    up = false;
    const lost = [await sendEvent(running.port), await sendEvent(running.port)];
    expect(lost.map((r) => r.status)).toEqual([200, 200]);
    const failed = await waitFor(() => {
      const f = records(`${log}.forwards`).filter((r) => r.ok === false);
      return f.length === 2 ? f : undefined;
    });
    const attempts = Number(failed[0]!.attempts);
    expect(attempts).toBeGreaterThan(1);
    expect(attempts).toBeLessThanOrEqual(10);
    expect(app.received.filter((r) => r.json?.id === lost[0]!.id)).toHaveLength(attempts);
    const code = await running.interrupt();
    running = undefined;
    expect(code).toBe(130);
    expect(running).toBeUndefined();

    up = true;
    const before = app.received.length;
    const replay = start(['listen', '--replay', log, '--forward-to', target, '--unforwarded', '--secret', SECRET], { ...LISTEN, env });
    expect(await replay.done).toBe(0);
    const resent = app.received.slice(before).map((r) => r.json?.id);
    expect(resent).toEqual(lost.map((r) => r.id));
    // Recorded as forwarded now: a second run has nothing left to send.
    const again = start(['listen', '--replay', log, '--forward-to', target, '--unforwarded', '--secret', SECRET], { ...LISTEN, env });
    expect(await again.done).toBe(0);
    expect(app.received.length).toBe(before + 2);
  });

  it('at Ctrl-C, counts the events the app has not acknowledged and names the command that re-sends them', async () => {
    app = await startReceiver(() => 500);
    const log = join(tmp.dir, 'events.ndjson');
    running = await startListen(['--secret', SECRET, '--log', log, '--forward-to', `${app.url}/`], env, { sleep });
    await sendEvent(running.port);
    await waitFor(() => records(`${log}.forwards`).find((r) => r.ok === false));
    const r = running;
    running = undefined;
    await r.interrupt();
    expect(r.stderr()).toMatch(/1 event not forwarded/);
    expect(r.stderr()).toContain(`voicectl listen --replay ${log} --forward-to ${app.url}/ --unforwarded`);
  });
});
