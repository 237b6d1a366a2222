import { describe, expect, it } from 'vitest';
import { explainGaps } from '../../src/events/delivery-status.js';
import { reconciledId } from '../../src/events/rebuild.js';
import type { Gap } from '../../src/events/reconcile.js';

const gap = (id: string, end: string, type: Gap['type'] = 'call.ended'): Gap => ({ type, object_id: id, campaign_id: 'k', occurred_at: end, data: { call_id: id, end_time: end } });

describe('why an event is missing, from delivery records', () => {
  it('reads gave up, still retrying and delivered from records that name the call, under other field names too', () => {
    const gaps = [gap('c1', '2026-01-01T10:00:00Z'), gap('c2', '2026-01-01T10:01:00Z'), gap('c3', '2026-01-01T10:02:00Z')];
    const records = [
      { id: 'd1', event_type: 'call.ended', status: 'failed', attempts: 8, last_response_code: 500, data: { call_id: 'c1' } },
      { delivery_id: 'd2', type: 'call.ended', state: 'retry_scheduled', attempt_count: 3, last_error: 'connection refused', next_retry_at: '2026-01-01T12:00:00Z', call_id: 'c2' },
      { id: 'd3', event: { id: 'evt_x', type: 'call.ended', data: { call_id: 'c3' } }, status: 'delivered', attempts: 1 },
    ];
    const [a, b, c] = explainGaps(gaps, records, new Set());
    expect(a).toMatchObject({ verdict: 'gave_up', attempts: 8, matched_by: 'object', delivery_id: 'd1' });
    expect(a!.reason).toMatch(/gave up after 8 attempts: answered 500/);
    expect(b).toMatchObject({ verdict: 'retrying', attempts: 3 });
    expect(b!.reason).toMatch(/still retrying \(3 attempts so far, last: connection refused\), next at 2026-01-01T12:00:00Z/);
    expect(c).toMatchObject({ verdict: 'delivered', event_id: 'evt_x' });
  });

  it('matches records without an object by type and nearest time, each record once, and says so', () => {
    const gaps = [gap('c1', '2026-01-01T10:00:00.000Z'), gap('c2', '2026-01-01T10:00:30.000Z'), gap('c3', '2026-01-01T11:00:00.000Z')];
    const records = [
      { id: 'd2', event_id: 'evt_b', event_type: 'call.ended', status: 'failed', attempts: 8, created_at: '2026-01-01T10:00:31.000Z' },
      { id: 'd1', event_id: 'evt_a', event_type: 'call.ended', status: 'failed', attempts: 8, created_at: '2026-01-01T10:00:01.000Z' },
      // Delivered and in the log: about no gap.
      { id: 'd9', event_id: 'evt_logged', event_type: 'call.ended', status: 'delivered', created_at: '2026-01-01T11:00:00.000Z' },
    ];
    const out = explainGaps(gaps, records, new Set(['evt_logged']));
    expect(out.map((s) => s.delivery_id)).toEqual(['d1', 'd2', undefined]);
    expect(out[0]!.reason).toMatch(/matched by time/);
    expect(out[2]).toMatchObject({ verdict: 'never_tried' });
    expect(out[2]!.reason).toMatch(/disabled/);
  });

  it('says an endpoint not subscribed to the type never tried', () => {
    const [s] = explainGaps([gap('c1', '2026-01-01T10:00:00Z', 'call.recording_ready')], [], new Set(), { id: 'ep', events: ['call.ended'] });
    expect(s).toMatchObject({ verdict: 'never_tried' });
    expect(s!.reason).toMatch(/not subscribed to call.recording_ready/);
  });

  it('gives a rebuilt event an id that depends only on type and object', () => {
    expect(reconciledId('call.ended', 'c1')).toBe(reconciledId('call.ended', 'c1'));
    expect(reconciledId('call.ended', 'c1')).not.toBe(reconciledId('call.recording_ready', 'c1'));
    expect(reconciledId('call.ended', 'c1')).toMatch(/^evt_reconciled_[0-9a-f]{32}$/);
  });
});
