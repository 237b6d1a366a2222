import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EventLog } from '../../src/webhooks/event-log.js';
import { Receiver, type AcceptedEvent, type Rejection } from '../../src/webhooks/receiver.js';
import { computeSignature, sign } from '../../src/webhooks/signature.js';
import { event, post, SECRET, sendEvent, signedHeaders, tempDir } from './receiver-harness.js';

let receiver: Receiver;
let port: number;
let accepted: AcceptedEvent[];
let rejected: Rejection[];
let tmp: ReturnType<typeof tempDir>;
let log: EventLog | undefined;

async function start(opts: Partial<ConstructorParameters<typeof Receiver>[0]> = {}): Promise<void> {
  receiver = new Receiver({
    port: 0,
    secrets: [SECRET],
    onEvent: (e) => accepted.push(e),
    onReject: (r) => rejected.push(r),
    ...opts,
  });
  ({ port } = await receiver.start());
}

beforeEach(() => {
  accepted = [];
  rejected = [];
  tmp = tempDir();
  log = undefined;
});

afterEach(async () => {
  await receiver?.close();
  await log?.close();
  tmp.remove();
});

describe('verification', () => {
  it('accepts a valid delivery and hands over the exact bytes', async () => {
    await start();
    const r = await sendEvent(port);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ received: true, id: r.id });
    expect(accepted).toHaveLength(1);
    expect(accepted[0]!.raw.toString('utf8')).toBe(r.sent);
    expect(accepted[0]!.verified).toBe(true);
    expect(accepted[0]!.type).toBe('call.ended');
  });

  it('rejects a tampered body that still parses, naming the secret or the content as the likely cause', async () => {
    await start();
    const e = event();
    const headers = signedHeaders(e.id, 'call.ended', e.body);
    const r = await post(port, e.body.replace('requirements_gathered', 'not_interested'), headers);
    expect(r.status).toBe(401);
    expect(r.json.reason).toBe('signature_mismatch');
    expect(String(r.json.likely)).toMatch(/secret is wrong.*content was altered/);
    expect(accepted).toHaveLength(0);
    expect(rejected[0]).toMatchObject({ status: 401, reason: 'signature_mismatch', id: e.id });
  });

  it('says a cut-short body was changed on the way', async () => {
    await start();
    const e = event();
    const r = await post(port, e.body.slice(0, -5), signedHeaders(e.id, 'call.ended', e.body));
    expect(r.status).toBe(401);
    expect(String(r.json.likely)).toMatch(/not valid JSON.*changed or cut short/);
  });

  it('recognises a re-serialized body (same JSON, other bytes)', async () => {
    await start();
    const e = event();
    const pretty = JSON.stringify(JSON.parse(e.body), null, 2);
    const r = await post(port, pretty, signedHeaders(e.id, 'call.ended', e.body));
    expect(r.status).toBe(401);
    expect(String(r.json.likely)).toMatch(/re-serialized/);
  });

  it('recognises a Python-style re-serialization (", " separators, escaped non-ASCII)', async () => {
    await start();
    const e = event();
    const parsed = JSON.parse(e.body) as Record<string, unknown>;
    const py = JSON.stringify(parsed).replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)
      .replace(/","/g, '", "').replace(/":/g, '": ').replace(/,"/g, ', "');
    // Sign what a Python sender would have produced, deliver the original bytes.
    expect(JSON.parse(py)).toEqual(parsed);
    const r = await post(port, e.body, signedHeaders(e.id, 'call.ended', py));
    expect(r.status).toBe(401);
    expect(String(r.json.likely)).toMatch(/re-serialized/);
  });

  it('rejects a stale timestamp (more than 5 minutes old) and a future one, and accepts one just inside', async () => {
    await start();
    const now = Math.floor(Date.now() / 1000);
    const stale = event();
    const r1 = await post(port, stale.body, signedHeaders(stale.id, 'call.ended', stale.body, { t: now - 310 }));
    expect(r1.status).toBe(401);
    expect(r1.json.reason).toBe('timestamp_out_of_range');
    expect(String(r1.json.error)).toMatch(/in the past/);
    expect(String(r1.json.likely)).toMatch(/clock is off/);

    const future = event();
    const r2 = await post(port, future.body, signedHeaders(future.id, 'call.ended', future.body, { t: now + 310 }));
    expect(r2.status).toBe(401);
    expect(String(r2.json.error)).toMatch(/in the future/);

    const inside = event();
    const r3 = await post(port, inside.body, signedHeaders(inside.id, 'call.ended', inside.body, { t: now - 280 }));
    expect(r3.status).toBe(200);
    expect(accepted.map((a) => a.id)).toEqual([inside.id]);
  });

  it('calls an old replay an old replay, and a millisecond t a unit mistake', async () => {
    await start();
    const e = event();
    const old = await post(port, e.body, signedHeaders(e.id, 'call.ended', e.body, { t: Math.floor(Date.now() / 1000) - 3 * 86_400 }));
    expect(String(old.json.likely)).toMatch(/replayed/);
    const ms = await post(port, e.body, signedHeaders(e.id, 'call.ended', e.body, { t: Date.now() }));
    expect(String(ms.json.likely)).toMatch(/milliseconds/);
  });

  it('accepts any of several v1 values (a rotation in progress)', async () => {
    await start();
    const e = event();
    const t = Math.floor(Date.now() / 1000);
    const wrong = computeSignature('whsec_other', t, e.body);
    const right = computeSignature(SECRET, t, e.body);
    const r = await post(port, e.body, { 'Service-Event-Id': e.id, 'Service-Signature': `t=${t},v1=${wrong},v1=${right}` });
    expect(r.status).toBe(200);
    const e2 = event();
    const none = await post(port, e2.body, { 'Service-Event-Id': e2.id, 'Service-Signature': `t=${t},v1=${wrong},v1=${'0'.repeat(64)}` });
    expect(none.status).toBe(401);
    expect(String(none.json.likely)).toMatch(/none of the 2 v1 values match/);
  });

  it('verifies against every configured secret (old and new)', async () => {
    await start({ secrets: ['whsec_old', SECRET] });
    expect((await sendEvent(port, 'ping', { secret: 'whsec_old' })).status).toBe(200);
    expect((await sendEvent(port, 'ping', { secret: SECRET })).status).toBe(200);
    expect((await sendEvent(port, 'ping', { secret: 'whsec_third' })).status).toBe(401);
  });

  it('picks up a rotated secret through reloadSecrets after a mismatch', async () => {
    let current = 'whsec_before';
    await start({ secrets: [current], reloadSecrets: () => [current] });
    expect((await sendEvent(port, 'ping', { secret: 'whsec_before' })).status).toBe(200);
    current = 'whsec_after';
    expect((await sendEvent(port, 'ping', { secret: 'whsec_after' })).status).toBe(200);
    // The old one still verifies: retries signed before the rotation may arrive late.
    expect((await sendEvent(port, 'ping', { secret: 'whsec_before' })).status).toBe(200);
  });

  it('rejects a missing or malformed header with 400 and a reason', async () => {
    await start();
    const e = event();
    const missing = await post(port, e.body, { 'Service-Event-Id': e.id });
    expect(missing.status).toBe(400);
    expect(missing.json.reason).toBe('missing_header');
    for (const bad of ['garbage', 't=abc,v1=00', 'v1=abcdef', `t=${Math.floor(Date.now() / 1000)}`]) {
      const r = await post(port, e.body, { 'Service-Event-Id': e.id, 'Service-Signature': bad });
      expect(r.status, bad).toBe(400);
      expect(r.json.reason, bad).toBe('malformed_header');
    }
    expect(accepted).toHaveLength(0);
    expect(rejected.map((x) => x.reason)).toEqual(['missing_header', ...Array(4).fill('malformed_header')]);
  });

  it('answers 413 to a body over the 1 MB cap without processing it', async () => {
    await start();
    const e = event('call.ended', { padding: 'x'.repeat(1024 * 1024) });
    const r = await post(port, e.body, signedHeaders(e.id, 'call.ended', e.body));
    expect(r.status).toBe(413);
    expect(r.json.reason).toBe('body_too_large');
    expect(accepted).toHaveLength(0);
    // A body just under the cap is fine.
    const ok = event('call.ended', { padding: 'x'.repeat(1000 * 1000) });
    expect((await post(port, ok.body, signedHeaders(ok.id, 'call.ended', ok.body))).status).toBe(200);
  });

  it('refuses a body that is not a JSON event, even unsigned under skip-verify', async () => {
    await start({ secrets: null });
    expect((await post(port, 'not json')).status).toBe(400);
    expect((await post(port, '[1,2]')).status).toBe(400);
    expect((await post(port, '{"type":"ping"}')).json.reason).toBe('no_event_id');
    const r = await post(port, '{"id":"evt_unsigned","type":"ping","data":{}}');
    expect(r.status).toBe(200);
    expect(accepted[0]!.verified).toBe(false);
  });
});

describe('duplicates', () => {
  it('answers a repeated Service-Event-Id with 2xx and does not process it again', async () => {
    log = await EventLog.open(join(tmp.dir, 'events.ndjson'));
    await start({ log });
    const e = event();
    const headers = signedHeaders(e.id, 'call.ended', e.body);
    const first = await post(port, e.body, headers);
    const again = await post(port, e.body, signedHeaders(e.id, 'call.ended', e.body));
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.json.duplicate).toBe(true);
    expect(accepted).toHaveLength(1);
    expect(receiver.stats).toMatchObject({ accepted: 1, duplicates: 1 });
    expect(readFileSync(join(tmp.dir, 'events.ndjson'), 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it('remembers a bounded number of ids, forgetting the oldest', async () => {
    await start({ dedupeCapacity: 2 });
    const a = event();
    await post(port, a.body, signedHeaders(a.id, 'call.ended', a.body));
    await sendEvent(port);
    await sendEvent(port);
    // a was pushed out: it is processed again.
    const r = await post(port, a.body, signedHeaders(a.id, 'call.ended', a.body));
    expect(r.json.duplicate).toBeUndefined();
    expect(accepted.filter((x) => x.id === a.id)).toHaveLength(2);
  });
});

describe('--log', () => {
  it('has every acknowledged event exactly once after 200 concurrent posts (with concurrent duplicates)', async () => {
    const file = join(tmp.dir, 'events.ndjson');
    log = await EventLog.open(file);
    await start({ log });
    const events = Array.from({ length: 200 }, () => event());
    const sends = events.flatMap((e, i) => {
      const once = () => post(port, e.body, signedHeaders(e.id, 'call.ended', e.body));
      // Every tenth event is delivered twice at the same moment, as a retry racing the original.
      return i % 10 === 0 ? [once(), once()] : [once()];
    });
    const replies = await Promise.all(sends);
    expect(replies.every((r) => r.status === 200)).toBe(true);
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    const ids = lines.map((l) => (JSON.parse(l) as { id: string }).id);
    expect(ids.sort()).toEqual(events.map((e) => e.id).sort());
    // Lines are the bytes received, never interleaved.
    const byId = new Map(events.map((e) => [e.id, e.body]));
    for (const l of lines) expect(l).toBe(byId.get((JSON.parse(l) as { id: string }).id));
    expect(receiver.stats).toMatchObject({ accepted: 200, duplicates: 20 });
  });

  it('appends to an existing file and writes a pretty-printed body as one line', async () => {
    const file = join(tmp.dir, 'events.ndjson');
    log = await EventLog.open(file);
    await start({ log, secrets: null });
    const e = event();
    await post(port, JSON.stringify(JSON.parse(e.body), null, 2), { 'Service-Event-Id': e.id });
    await receiver.close();
    await log.close();
    log = await EventLog.open(file);
    await start({ log, secrets: null });
    const e2 = event();
    await post(port, e2.body, { 'Service-Event-Id': e2.id });
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    expect(lines).toEqual([e.body, e2.body]);
  });

  it('does not acknowledge an event it could not write, and takes the retry', async () => {
    const file = join(tmp.dir, 'events.ndjson');
    log = await EventLog.open(file);
    await start({ log });
    await log.close();
    const e = event();
    const r = await post(port, e.body, signedHeaders(e.id, 'call.ended', e.body));
    expect(r.status).toBe(500);
    expect(accepted).toHaveLength(0);
    expect(rejected.at(-1)!.reason).toBe('log_write_failed');
  });
});

describe('answering', () => {
  it('answers GET with a note and other methods with 405', async () => {
    await start();
    const res = await fetch(`http://127.0.0.1:${port}/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/voicectl listen/);
    expect((await fetch(`http://127.0.0.1:${port}/`, { method: 'PUT', body: '{}' })).status).toBe(405);
  });

  it('answers 503 when the log write outlasts the deadline, then treats the retry as a duplicate', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    const lines: string[] = [];
    const slowLog = { path: 'slow.ndjson', append: async (l: string) => { await gate; lines.push(l); } } as unknown as EventLog;
    await start({ log: slowLog, ackDeadlineMs: 50 });
    const e = event();
    const first = await post(port, e.body, signedHeaders(e.id, 'call.ended', e.body));
    expect(first.status).toBe(503);
    release();
    await new Promise((r) => setTimeout(r, 10));
    const retry = await post(port, e.body, signedHeaders(e.id, 'call.ended', e.body));
    expect(retry.status).toBe(200);
    expect(retry.json.duplicate).toBe(true);
    expect(lines).toHaveLength(1);
  });

  it('signs with the shared module: a header from sign() verifies', async () => {
    await start();
    const e = event('ping');
    const r = await post(port, e.body, { 'Service-Event-Id': e.id, 'Service-Signature': sign(SECRET, e.body) });
    expect(r.status).toBe(200);
  });
});
