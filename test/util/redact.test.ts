import { describe, expect, it } from 'vitest';
import { isSecretParam, proxySecrets, redact } from '../../src/util/redact.js';

describe('redact', () => {
  it('masks URL credentials, user and password alike', () => {
    expect(redact('GET https://deploy:pa55@api.example.com/v1/calls → 200')).toBe('GET https://***@api.example.com/v1/calls → 200');
    expect(redact('http://token@h:8080/x')).toBe('http://***@h:8080/x');
    expect(redact('see http://h/path@v2 and mail a@b.c')).toBe('see http://h/path@v2 and mail a@b.c');
  });

  it.each([
    ['key'], ['api_key'], ['API_KEY'], ['apiKey'], ['token'], ['access_token'], ['secret'], ['client_secret'],
    ['signature'], ['X-Amz-Signature'], ['sig'], ['password'], ['x-api-key'], ['user_password'], ['auth'],
  ])('masks the value of ?%s=', (name) => {
    expect(redact(`https://h/p?region=in&${name}=s3cr3t-value&page=2`)).toBe(`https://h/p?region=in&${name}=***&page=2`);
    expect(isSecretParam(name)).toBe(true);
  });

  it.each([['limit'], ['offset'], ['campaign_id'], ['status'], ['monkey'], ['keyword'], ['tokens_used']])('keeps ?%s=', (name) => {
    expect(redact(`https://h/p?${name}=v`)).toBe(`https://h/p?${name}=v`);
  });

  it('masks the exact secrets it is given, wherever they appear, encoded or not', () => {
    const key = 'sk_live_abc/def+123';
    expect(redact(`invalid key ${key}; tried ${key}`, [key])).toBe('invalid key ***; tried ***');
    expect(redact(`https://h/x?k=${encodeURIComponent(key)}`, [key])).toBe('https://h/x?k=***');
    expect(redact('whsec_long_secret and whsec_long', ['whsec_long', 'whsec_long_secret'])).toBe('*** and ***');
  });

  it('leaves text without secrets, and secrets too short to search for, as they are', () => {
    expect(redact('error: not found (404)', ['abc', undefined, ''])).toBe('error: not found (404)');
  });
});

describe('proxySecrets', () => {
  it('yields each proxy password, raw and decoded, and the Basic token a proxy may echo', () => {
    const secrets = proxySecrets({ HTTPS_PROXY: 'http://ops:p%40ss-w0rd@proxy.corp:3128', http_proxy: 'proxy.corp:8080', HTTP_PROXY: 'http://[bad' });
    const token = Buffer.from('ops:p@ss-w0rd').toString('base64');
    expect(secrets).toEqual(expect.arrayContaining(['p%40ss-w0rd', 'p@ss-w0rd', token]));
    const text = redact(`407: Basic ${token} for ops:p@ss-w0rd`, secrets);
    expect(text).not.toContain('p@ss-w0rd');
    expect(text).not.toContain(token);
  });

  it('is empty without proxy credentials', () => {
    expect(proxySecrets({ HTTPS_PROXY: 'http://proxy.corp:3128', NO_PROXY: '*' })).toEqual([]);
  });
});
