import { describe, expect, it } from 'vitest';
import { addressProblem, checkWebhookUrl, ipv6Groups } from '../../src/sandbox/webhook-url.js';

const noDns = async () => {
  throw new Error('no DNS in this test');
};
const strict = { allowLocal: false, lookup: noDns };
const local = { allowLocal: true, lookup: noDns };

describe('addressProblem', () => {
  it('refuses private, loopback, link-local and special IPv4 ranges', () => {
    for (const ip of ['10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '127.0.0.1', '127.255.0.9', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255']) {
      expect(addressProblem(ip), ip).toBeDefined();
    }
    for (const ip of ['8.8.8.8', '172.32.0.1', '172.15.255.255', '100.128.0.1', '93.184.215.14']) expect(addressProblem(ip), ip).toBeUndefined();
  });

  it('refuses private IPv6 ranges and IPv4 addresses embedded in IPv6', () => {
    for (const ip of ['::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '64:ff9b::a00:1', '2002:c0a8:101::1', 'fec0::1']) {
      expect(addressProblem(ip), ip).toBeDefined();
    }
    for (const ip of ['2001:4860:4860::8888', '2606:4700::1111', '::ffff:8.8.8.8']) expect(addressProblem(ip), ip).toBeUndefined();
  });

  it('expands IPv6 notation', () => {
    expect(ipv6Groups('::1')).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(ipv6Groups('2001:db8::8:800:200c:417a')).toEqual([0x2001, 0xdb8, 0, 0, 0x8, 0x800, 0x200c, 0x417a]);
    expect(ipv6Groups('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x102, 0x304]);
  });
});

describe('checkWebhookUrl', () => {
  it('accepts HTTPS on a public address', async () => {
    expect(await checkWebhookUrl('https://93.184.215.14/hooks', strict)).toEqual({ ok: true, url: 'https://93.184.215.14/hooks' });
    expect(await checkWebhookUrl('https://[2606:4700::1111]:8443/h', strict)).toMatchObject({ ok: true });
  });

  it('refuses http, other schemes, credentials and junk', async () => {
    expect(await checkWebhookUrl('http://93.184.215.14/hooks', strict)).toMatchObject({ ok: false, reason: expect.stringMatching(/https/) });
    expect(await checkWebhookUrl('ftp://93.184.215.14/', strict)).toMatchObject({ ok: false });
    expect(await checkWebhookUrl('https://user:pw@93.184.215.14/', strict)).toMatchObject({ ok: false, reason: expect.stringMatching(/password/) });
    expect(await checkWebhookUrl('not a url', strict)).toMatchObject({ ok: false, reason: expect.stringMatching(/absolute URL/) });
    expect(await checkWebhookUrl('https://intranet/hook', strict)).toMatchObject({ ok: false, reason: expect.stringMatching(/public domain/) });
  });

  it('refuses private and loopback literals, including disguised ones', async () => {
    for (const u of ['https://127.0.0.1/h', 'https://10.0.0.8/h', 'https://[::1]/h', 'https://[fd00::5]/h', 'https://0x7f.1/h', 'https://2130706433/h', 'https://[::ffff:192.168.0.1]/h', 'https://localhost/h', 'https://api.localhost./h', 'https://169.254.169.254/latest']) {
      const r = await checkWebhookUrl(u, strict);
      expect(r.ok, u).toBe(false);
      if (!r.ok) expect(r.reason).toMatch(/public hosts only.*--allow-local-webhooks/);
    }
  });

  it('refuses a hostname that resolves to a private address', async () => {
    const lookup = async (host: string) => (host === 'evil.example.com' ? ['93.184.215.14', '10.0.0.5'] : ['93.184.215.14']);
    expect(await checkWebhookUrl('https://evil.example.com/h', { allowLocal: false, lookup })).toMatchObject({ ok: false, reason: expect.stringMatching(/resolves to 10\.0\.0\.5/) });
    expect(await checkWebhookUrl('https://good.example.com/h', { allowLocal: false, lookup })).toMatchObject({ ok: true });
  });

  it('accepts a hostname that does not resolve (the delivery will fail instead)', async () => {
    expect(await checkWebhookUrl('https://hooks.example.com/h', strict)).toMatchObject({ ok: true });
    const hang = () => new Promise<string[]>(() => {});
    expect(await checkWebhookUrl('https://slow.example.com/h', { allowLocal: false, lookup: hang, lookupTimeoutMs: 20 })).toMatchObject({ ok: true });
  });

  it('with allowLocal accepts http and loopback, but still refuses other private addresses', async () => {
    for (const u of ['http://127.0.0.1:4242/webhooks', 'http://localhost:4242/', 'http://[::1]:4242/', 'https://127.0.0.1/']) {
      expect(await checkWebhookUrl(u, local), u).toMatchObject({ ok: true });
    }
    expect(await checkWebhookUrl('http://10.0.0.8/h', local)).toMatchObject({ ok: false });
    expect(await checkWebhookUrl('http://169.254.169.254/h', local)).toMatchObject({ ok: false });
  });
});

describe('attemptTimeoutMs', () => {
  it('is 10 s in real time, shortened under a large time scale but never below 2 s', async () => {
    const { attemptTimeoutMs } = await import('../../src/sandbox/deliveries.js');
    expect(attemptTimeoutMs(1)).toBe(10_000);
    expect(attemptTimeoutMs(0.5)).toBe(10_000);
    expect(attemptTimeoutMs(2)).toBe(5000);
    expect(attemptTimeoutMs(600)).toBe(2000);
  });
});
