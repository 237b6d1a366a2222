/**
 * An acknowledgement means the event is safe: in the log (a whole line, never glued onto
 * a fragment), or accepted by the app listen forwards to, or else not a 2xx.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  eachListenTest, event, post, LISTEN, SECRET, sendEvent, signedHeaders, startListen, type Running,
} from '../webhooks/receiver-harness.js';
import { start } from '../helpers/run.js';

/** The log's file handle can be made to fail one write half way, as a full disk does. */
const fault = vi.hoisted(() => ({ path: '', armed: false }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const open = async (...args: Parameters<typeof real.open>) => {
    const handle = await real.open(...args);
    if (String(args[0]) !== fault.path) return handle;
    return new Proxy(handle, {
      get(target, prop) {
        if (prop === 'write') {
          return async (buf: Buffer, off = 0, len = buf.length - off) => {
            if (!fault.armed) return target.write(buf, off, len);
            fault.armed = false;
            await target.write(buf, off, Math.max(1, len >> 1));
            throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
          };
        }
        const v = Reflect.get(target, prop, target) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  };
  return { ...real, open, default: { ...(real as unknown as { default: object }).default, open } };
});

const t = eachListenTest();
beforeEach(() => {
  fault.path = '';
  fault.armed = false;
});

const lines = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean);

describe('--log: a torn tail is repaired before anything is appended', () => {
  it('at start: a partial last line is ended on its own line, and the next event gets a whole line', async () => {
    const file = join(t.tmp.dir, 'events.ndjson');
    const before = event();
    const fragment = '{"id":"evt_torn","type":"call.ended","data":{"call_id":"ca';
    writeFileSync(file, `${before.body}\n${fragment}`);
    t.running = await startListen(['--secret', SECRET, '--log', file], t.env);
    expect(t.running.stderr()).toMatch(/ended in a partial line/);
    const next = await sendEvent(t.running.port);
    expect(next.status).toBe(200);
    await t.running.interrupt();
    t.running = undefined;
    // The fragment stays, on its own line, for a person to look at; the new event is whole.
    expect(lines(file)).toEqual([before.body, fragment, next.sent]);

    const a = await t.app();
    const replay = start(['listen', '--replay', file, '--forward-to', `http://127.0.0.1:${a.port}/`, '--secret', SECRET], { ...LISTEN, env: t.env });
    expect(await replay.done).toBe(0);
    expect(replay.stderr()).toMatch(/events\.ndjson:2 is not a JSON event; skipped/);
    expect(a.received.map((r) => r.raw.toString('utf8'))).toEqual([before.body, next.sent]);
  });

  it('after a failed write: the event is not acknowledged, and the next one is not appended onto the fragment', async () => {
    const file = join(t.tmp.dir, 'events.ndjson');
    fault.path = file;
    t.running = await startListen(['--secret', SECRET, '--log', file], t.env);
    const first = event();
    fault.armed = true;
    const refused = await post(t.running.port, first.body, signedHeaders(first.id, 'call.ended', first.body));
    expect(refused.status).toBeGreaterThanOrEqual(500);
    const second = await sendEvent(t.running.port);
    expect(second.status).toBe(200);
    // The service's retry of the refused event.
    const retry = await post(t.running.port, first.body, signedHeaders(first.id, 'call.ended', first.body));
    expect(retry.status).toBe(200);
    expect(retry.json.duplicate).toBeUndefined();
    await t.running.interrupt();
    t.running = undefined;
    const logged = lines(file);
    expect(logged.map((l) => (JSON.parse(l) as { id: string }).id)).toEqual([second.id, first.id]);
    expect(logged).toEqual([second.sent, first.body]);
  });
});

describe('--forward-to without --log: 2xx only once the app accepted the event', () => {
  it('answers 5xx when the app is down, so the service delivers it again', async () => {
    const a = await t.app();
    const deadPort = a.port;
    await a.close();
    t.running = await startListen(['--secret', SECRET, '--forward-to', `http://127.0.0.1:${deadPort}/`], t.env);
    const r = await sendEvent(t.running.port);
    expect(r.status).toBeGreaterThanOrEqual(500);
    expect(r.json.error).toMatch(/not acknowledged|did not accept|connection refused/);
    await t.running.waitForOutput('connection refused', 'stderr');
    // Not acknowledged, so not remembered: the retry is processed as new.
    const again = await post(t.running.port, r.sent, signedHeaders(r.id, 'call.ended', r.sent));
    expect(again.json.duplicate).toBeUndefined();
  });

  it('answers 5xx when the app answers an error, and 2xx for the retry the app accepts', async () => {
    let status = 500;
    const { startReceiver } = await import('../webhooks/capture-server.js');
    const appServer = await startReceiver(() => status);
    t.closeAfter(appServer);
    t.running = await startListen(['--secret', SECRET, '--forward-to', `${appServer.url}/hooks`], t.env);
    const e = event();
    const first = await post(t.running.port, e.body, signedHeaders(e.id, 'call.ended', e.body));
    expect(first.status).toBeGreaterThanOrEqual(500);
    status = 200;
    const retry = await post(t.running.port, e.body, signedHeaders(e.id, 'call.ended', e.body));
    expect(retry.status).toBe(200);
    expect(appServer.received).toHaveLength(2);
    // Once accepted it is remembered: a further retry is a duplicate, not forwarded again.
    const third = await post(t.running.port, e.body, signedHeaders(e.id, 'call.ended', e.body));
    expect(third.json.duplicate).toBe(true);
    expect(appServer.received).toHaveLength(2);
  });

  it('holds the acknowledgement until the app has answered 2xx', async () => {
    const a = await t.app({ hold: true });
    t.running = await startListen(['--secret', SECRET, '--forward-to', `http://127.0.0.1:${a.port}/`], t.env);
    let answered = false;
    const reply = sendEvent(t.running.port).then((r) => {
      answered = true;
      return r;
    });
    await a.waitFor(1);
    await new Promise((r) => setTimeout(r, 100));
    expect(answered).toBe(false);
    a.release();
    expect((await reply).status).toBe(200);
  });
});

describe('neither --log nor --forward-to', () => {
  it('prints the event and acknowledges it', async () => {
    t.running = await startListen(['--secret', SECRET], t.env);
    const r = await sendEvent(t.running.port);
    expect(r.status).toBe(200);
    await t.running.waitForOutput(r.id, 'stdout');
  });
});
