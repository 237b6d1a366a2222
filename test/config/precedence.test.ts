import { describe, expect, it } from 'vitest';
import type { Env, GlobalOptions } from '../../src/context.js';
import { testContext } from '../../src/context-test.js';
import { openStore } from '../../src/config/store.js';
import { scratch } from '../helpers/scratch.js';

const { dir } = scratch('voicectl-cfg-');

async function withProfiles(): Promise<Env> {
  const env = { VOICECTL_CONFIG_DIR: dir() };
  const store = await openStore(env);
  await store.update('default', { base_url: 'https://profile.example/v1', api_key: 'sk_profile_1111', default_country: 'IN', timeout: '40' });
  await store.update('staging', { base_url: 'https://staging.example/v1', api_key: 'sk_staging_2222' });
  return env;
}

function settings(env: Env, opts: GlobalOptions = {}) {
  return testContext({ env, opts }).settings();
}

describe('Context.settings precedence: flag, then environment, then profile, then default', () => {
  it('the profile applies when neither flag nor environment says otherwise', async () => {
    const s = settings(await withProfiles());
    expect(s).toMatchObject({ profileName: 'default', baseUrl: 'https://profile.example/v1', apiKey: 'sk_profile_1111', defaultCountry: 'IN', timeoutMs: 40_000 });
  });

  it('the environment beats the profile', async () => {
    const env = {
      ...(await withProfiles()),
      VOICECTL_BASE_URL: 'https://env.example/v1',
      VOICECTL_API_KEY: 'sk_env_3333',
      VOICECTL_DEFAULT_COUNTRY: 'US',
      VOICECTL_TIMEOUT: '12',
    };
    expect(settings(env)).toMatchObject({ baseUrl: 'https://env.example/v1', apiKey: 'sk_env_3333', defaultCountry: 'US', timeoutMs: 12_000 });
  });

  it('a flag beats the environment and the profile', async () => {
    const env = { ...(await withProfiles()), VOICECTL_BASE_URL: 'https://env.example/v1', VOICECTL_API_KEY: 'sk_env_3333', VOICECTL_TIMEOUT: '12' };
    const s = settings(env, { baseUrl: 'https://flag.example/v1', apiKey: 'sk_flag_4444', timeout: 3 });
    expect(s).toMatchObject({ baseUrl: 'https://flag.example/v1', apiKey: 'sk_flag_4444', timeoutMs: 3_000 });
  });

  it('defaults apply when nothing is set anywhere', () => {
    const s = settings({ VOICECTL_CONFIG_DIR: dir() });
    expect(s).toMatchObject({ profileName: 'default', baseUrl: undefined, apiKey: undefined, defaultCountry: undefined, timeoutMs: 30_000 });
  });

  it('the profile is chosen by --profile, then VOICECTL_PROFILE, then "default"', async () => {
    const env = await withProfiles();
    expect(settings({ ...env, VOICECTL_PROFILE: 'staging' })).toMatchObject({ profileName: 'staging', apiKey: 'sk_staging_2222' });
    expect(settings({ ...env, VOICECTL_PROFILE: 'staging' }, { profile: 'default' })).toMatchObject({ profileName: 'default', apiKey: 'sk_profile_1111' });
    // Values the chosen profile lacks are not borrowed from another profile.
    expect(settings(env, { profile: 'staging' }).defaultCountry).toBeUndefined();
  });

  it('an empty environment variable does not hide the profile', async () => {
    const env = { ...(await withProfiles()), VOICECTL_API_KEY: '', VOICECTL_BASE_URL: '' };
    expect(settings(env)).toMatchObject({ baseUrl: 'https://profile.example/v1', apiKey: 'sk_profile_1111' });
  });
});
