import { describe, expect, it } from 'vitest';
import { sampleEvent } from '../../src/webhooks/samples.js';
import { EVENT_TYPES, type CallEventData } from '../../src/webhooks/signature.js';

const CALL_FIELDS = [
  'call_id', 'campaign_id', 'agent_id', 'agent_name', 'direction', 'phone_number', 'status', 'end_reason', 'outcome',
  'summary', 'error', 'duration_seconds', 'start_time', 'end_time', 'has_recording', 'contact',
];

describe('sample events', () => {
  const now = new Date('2025-03-04T05:06:07.089Z');

  it('gives every type the envelope of spec section 6', () => {
    for (const type of EVENT_TYPES) {
      const e = sampleEvent(type, { now });
      expect(Object.keys(e)).toEqual(['id', 'type', 'created_at', 'data']);
      expect(e.id).toMatch(/^evt_[0-9a-f]{24}$/);
      expect(e.type).toBe(type);
      expect(e.created_at).toBe('2025-03-04T05:06:07.089Z');
      expect(typeof e.data).toBe('object');
    }
  });

  it('gives call events every call field, without a transcript, and consistent times', () => {
    for (const type of ['call.ended', 'call.recording_ready'] as const) {
      const d = sampleEvent(type, { now }).data as CallEventData;
      expect(Object.keys(d).sort()).toEqual([...CALL_FIELDS].sort());
      expect(d.phone_number).toMatch(/^\+[1-9]\d{7,14}$/);
      expect(Date.parse(d.end_time!) - Date.parse(d.start_time!)).toBe(d.duration_seconds! * 1000);
      expect(d.contact).toMatchObject({ name: expect.any(String), extra: expect.any(Object) });
      expect(d.has_recording).toBe(type === 'call.recording_ready');
    }
  });

  it('gives campaign.completed a completed campaign with counts that leave nothing pending', () => {
    const d = sampleEvent('campaign.completed', { now }).data;
    expect(d).toMatchObject({ status: 'completed', id: expect.any(String), name: expect.any(String) });
    const counts = (d as { contacts_by_status: Record<string, number> }).contacts_by_status;
    expect(counts.pending).toBe(0);
    expect(counts.initiated).toBe(0);
  });

  it('replaces data entirely with --data, and makes a fresh id each time', () => {
    const e = sampleEvent('call.ended', { data: { call_id: 'mine', custom: [1, 2] } });
    expect(e.data).toEqual({ call_id: 'mine', custom: [1, 2] });
    expect(sampleEvent('ping').id).not.toBe(sampleEvent('ping').id);
  });
});
