/** `voicectl voice list`, the built binary against the sandbox. */
import { describe, expect, it } from 'vitest';
import { sharedHarness } from '../../helpers/cli.js';

const h = sharedHarness();

describe('voice list', () => {
  it('lists voices as JSON without a key', async () => {
    const r = await h.run(['voice', 'list', '--json'], { env: { VOICECTL_API_KEY: undefined } });
    expect(r.exitCode).toBe(0);
    const voices = JSON.parse(r.stdout) as Array<{ voice_name: string }>;
    expect(voices.map((v) => v.voice_name)).toContain('Priya');
    const get = h.sandbox.requests.filter((q) => q.path === '/voices').at(-1)!;
    expect(get.headers['x-api-key']).toBeUndefined();
  });

  it('filters by language', async () => {
    const r = await h.run(['voices', 'list', '--language', 'ta-IN', '-o', 'json']);
    const voices = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(voices.length).toBeGreaterThan(0);
    expect(voices.every((v) => JSON.stringify(v).includes('ta-IN'))).toBe(true);
  });

  it('prints a table on request', async () => {
    const r = await h.run(['voice', 'list', '-o', 'table']);
    expect(r.stdout).toMatch(/VOICE\s+LANGUAGE/);
    expect(r.stdout).toContain('Kabir');
  });
});
