import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findRecordingLink } from '../../../src/api/calls.js';
import { recordingExtension } from '../../../src/export/download.js';
import { fakeServer, makeCall, type FakeServer } from '../../export/fake-server.js';
import { run } from '../../helpers/run.js';
import { tempDir } from '../../export/harness.js';

describe('findRecordingLink', () => {
  const U = 'https://storage.example.com/rec/abc.wav?sig=1';
  it.each<[string, unknown, string | undefined]>([
    ['a bare string', U, undefined],
    ['{url}', { url: U }, undefined],
    ['{recording_url, expires_at}', { recording_url: U, expires_at: '2030-01-01T00:00:00Z' }, '2030-01-01T00:00:00Z'],
    ['{signed_url}', { signed_url: U }, undefined],
    ['{link}', { link: U, expires: 1893456000 }, '2030-01-01T00:00:00.000Z'],
    ['{data: {url}}', { data: { url: U, expires_at: '2030-01-01T00:00:00Z' } }, '2030-01-01T00:00:00Z'],
    ['{data: {recording: {href}}}', { data: { recording: { href: U } } }, undefined],
    ['an unknown field holding an http(s) string', { call_id: 'c1', where: U }, undefined],
    ['an unknown nested object', { result_set: { location: U } }, undefined],
  ])('finds the link in %s', (_name, body, expires) => {
    const found = findRecordingLink(body);
    expect(found?.url).toBe(U);
    expect(found?.expiresAt).toBe(expires);
  });

  it('keeps a relative link for the caller to resolve', () => {
    expect(findRecordingLink({ url: '/recordings/abc.wav?sig=1' })?.url).toBe('/recordings/abc.wav?sig=1');
  });

  it.each([[null], [{}], [{ url: 'not a link' }], [{ status: 'pending' }], [42]])('finds nothing in %j', (body) => {
    expect(findRecordingLink(body)).toBeUndefined();
  });
});

describe('recordingExtension', () => {
  it('prefers the content type, then the URL, then .wav', () => {
    expect(recordingExtension('audio/mpeg', 'https://x/a.wav')).toBe('.mp3');
    expect(recordingExtension('audio/x-wav; charset=binary', undefined)).toBe('.wav');
    expect(recordingExtension('application/octet-stream', 'https://x/a.OGG?sig=1')).toBe('.ogg');
    expect(recordingExtension(undefined, 'https://x/a.php')).toBe('.wav');
    expect(recordingExtension(undefined, undefined)).toBe('.wav');
  });
});

describe('call recording', () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const f of cleanups.splice(0).reverse()) await f();
  });
  async function servers(body?: (s: FakeServer, storage: FakeServer, id: string) => unknown) {
    const storage = await fakeServer([]);
    const api = await fakeServer([makeCall(1), makeCall(2, { has_recording: false })], body ? { recordingBody: (c, s) => body(s, storage, c.call_id) } : {
      recordingBody: (c) => ({ recording_url: `${storage.url}/audio/${c.call_id}.mp3?sig=x`, expires_at: '2030-01-01T00:00:00Z' }),
    });
    cleanups.push(() => api.close(), () => storage.close());
    return { api, storage, env: { VOICECTL_BASE_URL: api.url, VOICECTL_API_KEY: 'sk_secret_key' } };
  }

  it('prints a fresh link each time it is asked', async () => {
    const { api, storage, env } = await servers();
    const one = await run(['call', 'recording', 'call_000001'], { env });
    const two = await run(['call', 'recording', 'call_000001'], { env });
    expect(one.exitCode).toBe(0);
    expect(one.stdout.trim()).toBe(`${storage.url}/audio/call_000001.mp3?sig=x`);
    expect(two.stdout).toBe(one.stdout);
    expect(api.requests.filter((q) => q.path === '/calls/call_000001/recording-url')).toHaveLength(2);
  });

  it('prints the link and its expiry as JSON', async () => {
    const { storage, env } = await servers();
    const r = await run(['call', 'recording', 'call_000001', '--json'], { env });
    expect(JSON.parse(r.stdout)).toEqual({ call_id: 'call_000001', url: `${storage.url}/audio/call_000001.mp3?sig=x`, expires_at: '2030-01-01T00:00:00Z' });
  });

  it('downloads to a file without sending the key to the storage host', async () => {
    const { storage, env } = await servers();
    const t = tempDir();
    cleanups.push(t.remove);
    const file = join(t.dir, 'out.mp3');
    const r = await run(['call', 'recording', 'call_000001', '--download', file], { env, tty: { stdout: false, stderr: true } });
    expect(r.exitCode).toBe(0);
    expect(readFileSync(file)).toEqual(Buffer.alloc(4096, 'call_000001.mp3'));
    expect(readdirSync(t.dir)).toEqual(['out.mp3']);
    expect(r.stderr).toContain('Saved the recording of call_000001');
    expect(r.stderr).toContain('Downloading');
    expect(storage.requests).toHaveLength(1);
    expect(storage.requests[0]!.headers['x-api-key']).toBeUndefined();
  });

  it('resolves a relative link against the service', async () => {
    const { env } = await servers((s, _storage, id) => ({ data: { url: `/audio/${id}.wav` } }));
    const r = await run(['call', 'recording', 'call_000001', '--download', '-'], { env });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(Buffer.alloc(4096, 'call_000001.wav').toString());
  });

  it('says the recording is not ready (exit 4) and writes no file', async () => {
    const { env } = await servers();
    const t = tempDir();
    cleanups.push(t.remove);
    const file = join(t.dir, 'x.wav');
    const r = await run(['call', 'recording', 'call_000002', '--download', file], { env });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('no recording for call call_000002');
    expect(existsSync(file)).toBe(false);
  });

  it('fails with exit 1 when the response holds no link', async () => {
    const { env } = await servers(() => ({ status: 'processing' }));
    const r = await run(['call', 'recording', 'call_000001'], { env });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('holds no link');
  });
});
