import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configPath, inspectConfig, maskKey, maskProfile, readProfile } from '../../src/config/profiles.js';
import { checkKey, checkProfileName, normalizeValue as normalizeWith, openStore } from '../../src/config/store.js';
import { SETTING_CHECKS } from '../../src/commands/config/checks.js';
import type { ProfileKey } from '../../src/config/profiles.js';
import { UsageError } from '../../src/errors.js';
import { scratch } from '../helpers/scratch.js';

const posix = process.platform !== 'win32';
const { dir } = scratch('voicectl-cfg-');

function env(): { VOICECTL_CONFIG_DIR: string } {
  // A directory that does not exist yet, so the store has to create it.
  return { VOICECTL_CONFIG_DIR: join(dir(), 'nested', 'voicectl') };
}

const mode = (p: string) => statSync(p).mode & 0o777;
/** As `config set` checks a value: with the checks the command layer supplies. */
const normalizeValue = (key: ProfileKey, raw: string) => normalizeWith(key, raw, SETTING_CHECKS);

describe('openStore', () => {
  it('creates the file where readConfig looks, with mode 0600, in a directory with mode 0700', async () => {
    const e = env();
    const store = await openStore(e);
    await store.update('default', { base_url: 'http://127.0.0.1:9/v1', api_key: 'sk_abc_1234' });
    expect(store.path).toBe(configPath(e));
    expect(existsSync(configPath(e))).toBe(true);
    if (posix) {
      expect(mode(configPath(e))).toBe(0o600);
      expect(mode(e.VOICECTL_CONFIG_DIR)).toBe(0o700);
    }
    expect(readProfile(e, 'default')).toEqual({ base_url: 'http://127.0.0.1:9/v1', api_key: 'sk_abc_1234' });
  });

  it.runIf(posix)('tightens an existing, looser file to 0600 when it writes', async () => {
    const e = env();
    mkdirSync(e.VOICECTL_CONFIG_DIR, { recursive: true });
    writeFileSync(configPath(e), JSON.stringify({ profiles: { default: { timeout: '5' } } }), { mode: 0o644 });
    chmodSync(configPath(e), 0o644);
    const store = await openStore(e);
    await store.update('default', { default_country: 'IN' });
    expect(mode(configPath(e))).toBe(0o600);
    expect(readProfile(e, 'default')).toEqual({ timeout: '5', default_country: 'IN' });
  });

  it.runIf(posix)('narrows an existing, looser folder to 0700 when it writes', async () => {
    const e = env();
    mkdirSync(e.VOICECTL_CONFIG_DIR, { recursive: true, mode: 0o755 });
    chmodSync(e.VOICECTL_CONFIG_DIR, 0o755);
    const store = await openStore(e);
    await store.update('default', { api_key: 'sk_abc_1234' });
    expect(mode(e.VOICECTL_CONFIG_DIR)).toBe(0o700);
  });

  it('sets, reads back and unsets keys per profile, leaving other profiles alone', async () => {
    const e = env();
    const store = await openStore(e);
    await store.update('default', { base_url: 'https://a.example/v1' });
    await store.update('staging.eu', { base_url: 'https://b.example/v1', timeout: '60' });
    await store.update('default', { api_key: 'sk_default_9999' });
    expect(store.profile('default')).toEqual({ base_url: 'https://a.example/v1', api_key: 'sk_default_9999' });
    // A dotted name is one profile, not a path into the file.
    expect(readProfile(e, 'staging.eu')).toEqual({ base_url: 'https://b.example/v1', timeout: '60' });

    await store.update('staging.eu', { timeout: undefined });
    expect(readProfile(e, 'staging.eu')).toEqual({ base_url: 'https://b.example/v1' });
    await store.update('staging.eu', { base_url: undefined });
    // An emptied profile disappears from the file.
    expect(JSON.parse(readFileSync(configPath(e), 'utf8')).profiles).not.toHaveProperty(['staging.eu']);
    expect(readProfile(e, 'default').api_key).toBe('sk_default_9999');
  });

  it('keeps keys it does not know about in the file', async () => {
    const e = env();
    mkdirSync(e.VOICECTL_CONFIG_DIR, { recursive: true });
    writeFileSync(configPath(e), JSON.stringify({ editor: 'vim', profiles: { default: { custom: 'x' } } }));
    const store = await openStore(e);
    await store.update('default', { timeout: '10' });
    const file = JSON.parse(readFileSync(configPath(e), 'utf8'));
    expect(file.editor).toBe('vim');
    expect(file.profiles.default).toEqual({ custom: 'x', timeout: '10' });
  });

  it('refuses a broken file with a message naming it, instead of overwriting it', async () => {
    const e = env();
    mkdirSync(e.VOICECTL_CONFIG_DIR, { recursive: true });
    writeFileSync(configPath(e), '{"profiles": {');
    const err = await openStore(e).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toContain(e.VOICECTL_CONFIG_DIR);
    expect((err as Error).message).toContain('not valid JSON');
    expect(readFileSync(configPath(e), 'utf8')).toBe('{"profiles": {');
    expect(inspectConfig(e).problem).toContain('not valid JSON');
  });

  it('refuses profile names that are not plain words', async () => {
    const store = await openStore(env());
    await expect(store.update('__proto__', { timeout: '1' })).rejects.toThrow(UsageError);
    expect(() => checkProfileName('has space')).toThrow(UsageError);
    expect(checkProfileName('prod-eu_2.b')).toBe('prod-eu_2.b');
  });
});

describe('keys and values', () => {
  it('accepts the profile keys (and base-url for base_url); an unknown key lists the valid ones', () => {
    expect(checkKey('base_url')).toBe('base_url');
    expect(checkKey('base-url')).toBe('base_url');
    expect(checkKey('API_KEY')).toBe('api_key');
    let err: unknown;
    try {
      checkKey('colour');
    } catch (x) {
      err = x;
    }
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toContain('"colour"');
    for (const k of ['base_url', 'api_key', 'default_country', 'timeout']) expect((err as UsageError).hint).toContain(k);
  });

  // base_url is an http(s) URL, a trailing slash dropped; default_country an ISO 3166
  // alpha-2 code, uppercased; timeout a positive number of seconds; api_key is trimmed.
  it.each([
    ['base_url', ' https://api.example.com/v1/ ', 'https://api.example.com/v1'], ['base_url', 'http://127.0.0.1:4010', 'http://127.0.0.1:4010'],
    ['default_country', 'in', 'IN'], ['default_country', 'Us', 'US'],
    ['timeout', '45', '45'], ['timeout', '2.5', '2.5'],
    ['api_key', 'sk_live_abcd\n', 'sk_live_abcd'],
  ] as const)('%s %j is kept as %j', async (key, raw, kept) => {
    expect(await normalizeValue(key, raw)).toBe(kept);
  });

  const refused: Partial<Record<ProfileKey, string[]>> = {
    base_url: ['ftp://x.example', 'api.example.com', '', 'http://'],
    default_country: ['IND', 'I', 'ZZ', 'UK', '91'],
    timeout: ['0', '-3', 'soon', ''],
    api_key: ['sk live', '  '], // no spaces or line breaks
  };
  it.each(Object.entries(refused).flatMap(([key, values]) => values.map((v) => [key as ProfileKey, v] as const)))('%s refuses %j', async (key, raw) => {
    await expect(normalizeValue(key, raw)).rejects.toBeInstanceOf(UsageError);
  });

  it('calling_hours is a window, stored in one spelling', async () => {
    expect(await normalizeValue('calling_hours', ' 9:00-18:30 ')).toMatch(/^09:00-18:30$/);
    await expect(normalizeValue('calling_hours', 'after lunch')).rejects.toBeInstanceOf(UsageError);
  });

  it('takes the country, calling-hours and rate-card checks from its caller, so config/ imports no domain module', async () => {
    const seen: string[] = [];
    const checks = {
      default_country: (v: string) => (seen.push(`country ${v}`), 'XX'),
      calling_hours: (v: string, raw: string) => (seen.push(`hours ${v} (${raw})`), 'always'),
      rate_card: (v: string) => (seen.push(`card ${v}`), '/cards/rates.yaml'),
    };
    expect(await normalizeWith('default_country', ' zz ', checks)).toBe('XX');
    expect(await normalizeWith('calling_hours', ' 9-5 ', checks)).toBe('always');
    expect(await normalizeWith('rate_card', ' rates.yaml ', checks)).toBe('/cards/rates.yaml');
    expect(await normalizeWith('timeout', '5', checks)).toBe('5');
    expect(seen).toEqual(['country zz', 'hours 9-5 ( 9-5 )', 'card rates.yaml']);
  });

  it('masks keys to their last four characters', () => {
    expect(maskKey('sk_live_abcdef1234')).toBe('****1234');
    expect(maskKey('abc')).toBe('****');
    expect(maskProfile({ api_key: 'sk_live_abcdef1234', base_url: 'https://x/v1' })).toEqual({ base_url: 'https://x/v1', api_key: '****1234' });
  });
});
