/**
 * Duplicates are recognised by the signed body's id, not the unsigned Service-Event-Id
 * header, and across a restart (seeded from the log).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sign } from '../../src/webhooks/signature.js';
import {
  eachListenTest, event, post, SECRET, signedHeaders, startListen, type Running,
} from '../webhooks/receiver-harness.js';

const t = eachListenTest();

const ids = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { id: string }).id);

describe('the event id is the signed body\'s', () => {
  it('refuses a request whose Service-Event-Id disagrees with the body\'s id, and says why', async () => {
    const file = join(t.tmp.dir, 'events.ndjson');
    t.running = await startListen(['--secret', SECRET, '--log', file], t.env);
    const e = event();
    const r = await post(t.running.port, e.body, { ...signedHeaders(e.id, 'call.ended', e.body), 'Service-Event-Id': 'evt_not_this_one' });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(r.json.reason).toBe('event_id_mismatch');
    expect(String(r.json.error)).toContain('evt_not_this_one');
    expect(String(r.json.error)).toContain(e.id);
    await t.running.waitForOutput('evt_not_this_one', 'stderr');
    expect(readFileSync(file, 'utf8')).toBe('');
  });

  it('a captured signed request replayed with new header ids is neither logged nor forwarded again', async () => {
    const file = join(t.tmp.dir, 'events.ndjson');
    const a = await t.app();
    t.running = await startListen(['--secret', SECRET, '--log', file, '--forward-to', `http://127.0.0.1:${a.port}/`], t.env);
    const e = event();
    const captured = signedHeaders(e.id, 'call.ended', e.body);
    expect((await post(t.running.port, e.body, captured)).status).toBe(200);
    await a.waitFor(1);
    const replies = [];
    for (let i = 0; i < 5; i++) replies.push(await post(t.running.port, e.body, { ...captured, 'Service-Event-Id': `evt_fresh_${i}` }));
    const { 'Service-Event-Id': _dropped, ...noHeaderId } = captured;
    replies.push(await post(t.running.port, e.body, noHeaderId));
    expect(replies.every((r) => r.status < 500)).toBe(true);
    // Without the header the body's id still identifies it: a duplicate.
    expect(replies.at(-1)!.json.duplicate).toBe(true);
    await t.running.interrupt();
    t.running = undefined;
    expect(ids(file)).toEqual([e.id]);
    expect(a.received).toHaveLength(1);
  });

  it('the same without --log: forwarded once', async () => {
    const a = await t.app();
    t.running = await startListen(['--secret', SECRET, '--forward-to', `http://127.0.0.1:${a.port}/`], t.env);
    const e = event();
    const captured = signedHeaders(e.id, 'call.ended', e.body);
    expect((await post(t.running.port, e.body, captured)).status).toBe(200);
    for (let i = 0; i < 3; i++) await post(t.running.port, e.body, { ...captured, 'Service-Event-Id': `evt_again_${i}` });
    await post(t.running.port, e.body, captured);
    expect(a.received).toHaveLength(1);
  });
});

describe('seen ids survive a restart', () => {
  it('a retry arriving after listen was restarted on the same log is a duplicate', async () => {
    const file = join(t.tmp.dir, 'events.ndjson');
    const a = await t.app();
    const args = ['--secret', SECRET, '--log', file, '--forward-to', `http://127.0.0.1:${a.port}/`];
    t.running = await startListen(args, t.env);
    const e = event();
    expect((await post(t.running.port, e.body, signedHeaders(e.id, 'call.ended', e.body))).status).toBe(200);
    await a.waitFor(1);
    await t.running.interrupt();
    t.running = await startListen(args, t.env);
    const retry = await post(t.running.port, e.body, signedHeaders(e.id, 'call.ended', e.body));
    expect(retry.status).toBe(200);
    expect(retry.json.duplicate).toBe(true);
    await t.running.interrupt();
    t.running = undefined;
    expect(ids(file)).toEqual([e.id]);
    expect(a.received).toHaveLength(1);
  });

  it('covers the service\'s retry window: an event created 30 hours ago, logged, is still a duplicate', async () => {
    const file = join(t.tmp.dir, 'events.ndjson');
    const old = JSON.stringify({ id: 'evt_thirty_hours', type: 'call.ended', created_at: new Date(Date.now() - 30 * 3600_000).toISOString(), data: { call_id: 'call_old' } });
    const others = Array.from({ length: 50 }, () => event().body);
    writeFileSync(file, `${old}\n${others.join('\n')}\n`);
    t.running = await startListen(['--secret', SECRET, '--log', file], t.env);
    const retry = await post(t.running.port, old, { 'Service-Event-Id': 'evt_thirty_hours', 'Service-Signature': sign(SECRET, old) });
    expect(retry.status).toBe(200);
    expect(retry.json.duplicate).toBe(true);
    await t.running.interrupt();
    t.running = undefined;
    expect(ids(file).filter((id) => id === 'evt_thirty_hours')).toHaveLength(1);
  });
});
