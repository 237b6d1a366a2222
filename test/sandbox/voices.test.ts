import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { DEFAULT_PLAN } from '../../src/sandbox/world.js';
import { expectValidWav, sandbox, type Client } from './helpers.js';

let sb: Sandbox;
let api: Client;

beforeAll(async () => {
  ({ sb, api } = await sandbox());
});
afterAll(() => sb?.close());

describe('GET /voices', () => {
  it('lists voices in every plan language and some outside it', async () => {
    const res = await api('GET', '/voices', undefined, null);
    expect(res.status).toBe(200);
    const voices = res.body.voices as any[];
    const langs = new Set(voices.map((v) => v.language_code));
    for (const l of DEFAULT_PLAN.languages) expect(langs.has(l), l).toBe(true);
    expect(voices.some((v) => !DEFAULT_PLAN.languages.includes(v.language_code))).toBe(true);
    for (const v of voices) {
      expect(v.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(typeof v.voice_name).toBe('string');
      expect(typeof v.supports_code_switching).toBe('boolean');
      expect(v.demo_url.startsWith(sb.url)).toBe(true);
    }
    expect(new Set(voices.map((v) => v.id)).size).toBe(voices.length);
    expect(voices.some((v) => v.supports_code_switching)).toBe(true);
    expect(voices.some((v) => !v.supports_code_switching)).toBe(true);
  });

  it('filters by language_code', async () => {
    const hi = (await api('GET', '/voices?language_code=hi-IN', undefined, null)).body.voices as any[];
    expect(hi.length).toBeGreaterThan(0);
    expect(hi.every((v) => v.language_code === 'hi-IN')).toBe(true);
    expect((await api('GET', '/voices?language_code=xx-XX', undefined, null)).body.voices).toEqual([]);
  });

  it('keeps voice ids across restarts', async () => {
    const again = await sandbox({ seed: 99 });
    try {
      const a = (await api('GET', '/voices', undefined, null)).body.voices.map((v: any) => v.id);
      const b = (await again.api('GET', '/voices', undefined, null)).body.voices.map((v: any) => v.id);
      expect(b).toEqual(a);
    } finally {
      await again.sb.close();
    }
  });

  it('serves each demo_url as a real WAV without a key', async () => {
    const voice = (await api('GET', '/voices', undefined, null)).body.voices[0];
    const res = await fetch(voice.demo_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    expectValidWav(Buffer.from(await res.arrayBuffer()), 1);
  });
});
