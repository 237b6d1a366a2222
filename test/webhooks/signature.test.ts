import { describe, expect, it } from 'vitest';
import {
  EVENT_TYPES,
  SIGNATURE_HEADER,
  computeSignature,
  isWebhookEventType,
  parseSignatureHeader,
  sign,
  verify,
  type WebhookEvent,
} from '../../src/webhooks/signature.js';
import { referenceHmacHex } from './reference-hmac.js';

const secret = 'whsec_test_0123456789abcdef';
const t = 1_700_000_000;
const now = t * 1000;
// Non-ASCII and odd spacing: a re-serialized body would differ from these bytes.
const raw = Buffer.from('{"id":"evt_1", "type":"ping","data":{"note":"नमस्ते ✓"}}', 'utf8');

describe('reference HMAC', () => {
  it('matches the RFC 4231 test case 1 vector', () => {
    const key = '\x0b'.repeat(20);
    expect(referenceHmacHex(key, Buffer.from('Hi There'))).toBe(
      'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7',
    );
  });
});

describe('sign', () => {
  it('produces t=…,v1=… with the HMAC of "t.body" over the raw bytes', () => {
    const header = sign(secret, raw, t);
    const expected = referenceHmacHex(secret, Buffer.concat([Buffer.from(`${t}.`), raw]));
    expect(header).toBe(`t=${t},v1=${expected}`);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
  });

  it('signs a string as its UTF-8 bytes', () => {
    expect(sign(secret, raw.toString('utf8'), t)).toBe(sign(secret, raw, t));
  });

  it('defaults t to the current real time', () => {
    const before = Math.floor(Date.now() / 1000);
    const parsed = parseSignatureHeader(sign(secret, raw));
    expect(parsed!.timestamp).toBeGreaterThanOrEqual(before);
    expect(parsed!.timestamp).toBeLessThanOrEqual(before + 2);
  });

  it('refuses a fractional or negative timestamp', () => {
    expect(() => sign(secret, raw, 1.5)).toThrow(TypeError);
    expect(() => sign(secret, raw, -1)).toThrow(TypeError);
  });
});

describe('verify', () => {
  const header = sign(secret, raw, t);

  it('accepts a valid delivery and returns its timestamp', () => {
    expect(verify(secret, raw, header, { now })).toEqual({ ok: true, timestamp: t });
    expect(verify(secret, raw.toString('utf8'), header, { now: new Date(now) }).ok).toBe(true);
  });

  it('accepts a header signed independently (not by sign())', () => {
    const v1 = referenceHmacHex(secret, Buffer.concat([Buffer.from(`${t}.`), raw]));
    expect(verify(secret, raw, `t=${t},v1=${v1}`, { now }).ok).toBe(true);
  });

  it('rejects a tampered body', () => {
    const tampered = Buffer.from(raw);
    tampered[tampered.length - 3] ^= 1;
    expect(verify(secret, tampered, header, { now })).toMatchObject({ ok: false, reason: 'signature_mismatch', timestamp: t });
  });

  it('rejects a re-serialized body', () => {
    const reserialized = JSON.stringify(JSON.parse(raw.toString('utf8')));
    expect(reserialized).not.toBe(raw.toString('utf8'));
    expect(verify(secret, reserialized, header, { now })).toMatchObject({ ok: false, reason: 'signature_mismatch' });
  });

  it('rejects the wrong secret', () => {
    expect(verify('whsec_other', raw, header, { now })).toMatchObject({ ok: false, reason: 'signature_mismatch' });
  });

  it('rejects a timestamp more than 5 minutes old or ahead, and accepts exactly 5 minutes', () => {
    expect(verify(secret, raw, header, { now: now + 301_000 })).toMatchObject({ ok: false, reason: 'timestamp_out_of_range', skewSec: 301 });
    expect(verify(secret, raw, header, { now: now - 301_000 })).toMatchObject({ ok: false, reason: 'timestamp_out_of_range', skewSec: -301 });
    expect(verify(secret, raw, header, { now: now + 300_000 }).ok).toBe(true);
    expect(verify(secret, raw, header, { now: now - 300_000 }).ok).toBe(true);
  });

  it('honours a custom tolerance', () => {
    expect(verify(secret, raw, header, { now: now + 11_000, toleranceSec: 10 })).toMatchObject({ reason: 'timestamp_out_of_range' });
    expect(verify(secret, raw, header, { now: now + 9_000, toleranceSec: 10 }).ok).toBe(true);
  });

  it('reports a missing header', () => {
    for (const h of [undefined, null, '', '   ']) {
      expect(verify(secret, raw, h, { now })).toMatchObject({ ok: false, reason: 'missing_header' });
    }
  });

  it('reports a malformed header', () => {
    const v1 = computeSignature(secret, t, raw);
    for (const h of ['garbage', `v1=${v1}`, `t=${t}`, `t=abc,v1=${v1}`, `t=${t},t=${t},v1=${v1}`, `t=-5,v1=${v1}`]) {
      expect(verify(secret, raw, h, { now })).toMatchObject({ ok: false, reason: 'malformed_header' });
    }
  });

  it('accepts any of several v1 values (rotation) and ignores unknown schemes', () => {
    const good = computeSignature(secret, t, raw);
    const other = computeSignature('whsec_old', t, raw);
    expect(verify(secret, raw, `t=${t},v1=${other},v1=${good}`, { now }).ok).toBe(true);
    expect(verify(secret, raw, `t=${t}, v0=deadbeef, v1=${good}`, { now }).ok).toBe(true);
    expect(verify(secret, raw, `t=${t},v1=${other},v1=nothex`, { now })).toMatchObject({ reason: 'signature_mismatch' });
  });

  it('accepts a list of secrets, matching any', () => {
    expect(verify(['whsec_new', secret], raw, header, { now }).ok).toBe(true);
    expect(verify(['whsec_new', 'whsec_x'], raw, header, { now }).ok).toBe(false);
  });

  it('accepts repeated headers as Node presents them', () => {
    const good = computeSignature(secret, t, raw);
    expect(verify(secret, raw, [`t=${t}`, `v1=${good}`], { now }).ok).toBe(true);
  });

  it('does not accept a signature computed for another timestamp', () => {
    const v1 = computeSignature(secret, t - 1, raw);
    expect(verify(secret, raw, `t=${t},v1=${v1}`, { now })).toMatchObject({ reason: 'signature_mismatch' });
  });

  it('refuses to verify with no secret', () => {
    expect(() => verify([], raw, header, { now })).toThrow(TypeError);
    expect(() => verify('', raw, header, { now })).toThrow(TypeError);
  });
});

describe('event types', () => {
  it('lists the four types and narrows the union', () => {
    expect(EVENT_TYPES).toEqual(['call.ended', 'call.recording_ready', 'campaign.completed', 'ping']);
    expect(isWebhookEventType('ping')).toBe(true);
    expect(isWebhookEventType('call.started')).toBe(false);
    expect(SIGNATURE_HEADER.toLowerCase()).toBe('service-signature');
    const event = JSON.parse('{"id":"evt_1","type":"campaign.completed","created_at":"2025-01-01T00:00:00.000Z","data":{"id":"c","name":"n","agent_id":null,"status":"completed","contacts_by_status":{"completed":2}}}') as WebhookEvent;
    if (event.type === 'campaign.completed') expect(event.data.contacts_by_status.completed).toBe(2);
    else throw new Error('narrowing failed');
  });
});
