import { describe, expect, it } from 'vitest';
import { explainGaps } from '../../src/events/delivery-status.js';
import { reconciledId } from '../../src/events/rebuild.js';
import type { Gap } from '../../src/events/reconcile.js';

const logged = (ids: string[] = [], times: Record<string, string[]> = {}) => ({
  ids: new Set(ids),
  times: new Map(Object.entries(times).map(([type, list]) => [type, list.map((t) => Date.parse(t))])),
});
const gap = (id: string, end: string, type: Gap['type'] = 'call.ended'): Gap => ({ type, object_id: id, campaign_id: 'k', occurred_at: end, data: { call_id: id, end_time: end } });

describe('why an event is missing, from delivery records', () => {
  it('reads gave up, still retrying and delivered from records that name the call, under other field names too', () => {
    const gaps = [gap('c1', '2026-01-01T10:00:00Z'), gap('c2', '2026-01-01T10:01:00Z'), gap('c3', '2026-01-01T10:02:00Z')];
    const records = [
      { id: 'd1', event_type: 'call.ended', status: 'failed', attempts: 8, last_response_code: 500, data: { call_id: 'c1' } },
      { delivery_id: 'd2', type: 'call.ended', state: 'retry_scheduled', attempt_count: 3, last_error: 'connection refused', next_retry_at: '2026-01-01T12:00:00Z', call_id: 'c2' },
      { id: 'd3', event: { id: 'evt_x', type: 'call.ended', data: { call_id: 'c3' } }, status: 'delivered', attempts: 1 },
    ];
    const [a, b, c] = explainGaps(gaps, records, logged());
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
    const out = explainGaps(gaps, records, logged(['evt_logged']));
    expect(out.map((s) => s.delivery_id)).toEqual(['d1', 'd2', undefined]);
    expect(out[0]!.reason).toMatch(/matched by time/);
    expect(out[2]).toMatchObject({ verdict: 'never_tried' });
    expect(out[2]!.reason).toMatch(/disabled/);
  });

  it('an endpoint disabled during a campaign, with records of an earlier one that name nothing: never tried, never delivered', () => {
    // Campaign A (logged, delivered) ended its calls 09:50–09:54; campaign B's first three
    // were delivered and logged, then the endpoint was off for b4–b6. The records name no event, call or campaign.
    const at = (m: number, s = 0) => `2026-01-01T09:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.000Z`;
    const loggedTimes = [at(50), at(51), at(52), at(53), at(54), at(56), at(57), at(58)];
    const records = loggedTimes.map((t) => ({ event_type: 'call.ended', status: 'delivered', attempts: 1, created_at: t }));
    const gaps = [gap('b4', at(58, 30)), gap('b5', at(59)), gap('b6', at(59, 40))];
    const out = explainGaps(gaps, records, logged([], { 'call.ended': loggedTimes }), { id: 'ep', enabled: false });
    expect(out.map((s) => s.verdict)).toEqual(['never_tried', 'never_tried', 'never_tried']);
    expect(out[0]!.reason).toMatch(/endpoint is disabled/);
    // Knowing only b3's time (its end, from the API), not the log's: the record near b4 is b3's still.
    const fromApi = explainGaps(gaps, records, logged([], { 'call.ended': [at(58)] }), { id: 'ep', enabled: false });
    expect(fromApi.map((s) => s.verdict)).toEqual(['never_tried', 'never_tried', 'never_tried']);
    // Knowing neither, the record 30 s before b4 (and 60 s before b5) may be b4's: the verdict stays short of never tried.
    const blind = explainGaps(gaps, records, logged(), { id: 'ep', enabled: false });
    expect(blind[1]).toMatchObject({ verdict: 'unknown' });
    expect(blind[1]!.reason).toMatch(/could as well be another event's/);
    expect(blind[2]).toMatchObject({ verdict: 'never_tried' });
  });

  it('a record as close to another event (missing or logged) is neither\'s: unknown, not delivered', () => {
    const records = [{ event_type: 'call.ended', status: 'delivered', created_at: '2026-01-01T10:00:10.000Z' }];
    const twoGaps = explainGaps([gap('c1', '2026-01-01T10:00:00.000Z'), gap('c2', '2026-01-01T10:00:20.000Z')], records, logged());
    expect(twoGaps.map((s) => s.verdict)).toEqual(['unknown', 'unknown']);
    const nearLogged = explainGaps([gap('c1', '2026-01-01T10:00:00.000Z')], records, logged([], { 'call.ended': ['2026-01-01T10:00:20.000Z'] }));
    expect(nearLogged[0]).toMatchObject({ verdict: 'unknown' });
    // Two records equally close to the one gap: neither is told to be its own.
    const twoRecords = explainGaps([gap('c1', '2026-01-01T10:00:00.000Z')], [...records, { ...records[0], created_at: '2026-01-01T09:59:50.000Z' }], logged());
    expect(twoRecords[0]).toMatchObject({ verdict: 'unknown' });
    expect(twoRecords[0]!.reason).toMatch(/equally close/);
  });

  it('matches one record to one event within the stated tolerance, and says how far apart', () => {
    const records = [{ id: 'd1', event_type: 'call.ended', status: 'delivered', created_at: '2026-01-01T10:00:03.000Z' }];
    const [s] = explainGaps([gap('c1', '2026-01-01T10:00:00.000Z')], records, logged());
    expect(s).toMatchObject({ verdict: 'delivered', matched_by: 'time', delivery_id: 'd1' });
    expect(s!.reason).toMatch(/\[record matched by time: 3s apart; no other event or record as close, tolerance 1 minute\]/);
    // Past the tolerance it is no evidence: no record near it, never tried.
    const [far] = explainGaps([gap('c1', '2026-01-01T10:01:04.000Z')], records, logged());
    expect(far).toMatchObject({ verdict: 'never_tried' });
  });

  it('a recording record two missing recordings could both own is neither\'s (their own times are not known)', () => {
    const records = [{ event_type: 'call.recording_ready', status: 'delivered', created_at: '2026-01-01T10:00:40.000Z' }];
    const out = explainGaps([gap('c1', '2026-01-01T10:00:00.000Z', 'call.recording_ready'), gap('c2', '2026-01-01T10:00:30.000Z', 'call.recording_ready')], records, logged());
    expect(out.map((s) => s.verdict)).toEqual(['unknown', 'unknown']);
    const alone = explainGaps([gap('c1', '2026-01-01T10:00:00.000Z', 'call.recording_ready')], records, logged());
    expect(alone[0]).toMatchObject({ verdict: 'delivered', matched_by: 'time' });
  });

  it('records that name no event, object or time make a gap unknown, not never tried', () => {
    const records = [{ status: 'delivered' }, { event_type: 'call.ended', status: 'failed' }];
    const [s] = explainGaps([gap('c1', '2026-01-01T10:00:00.000Z')], records, logged());
    expect(s).toMatchObject({ verdict: 'unknown' });
    expect(s!.reason).toMatch(/2 delivery records name neither the event, the call nor a time/);
  });

  it('says an endpoint not subscribed to the type never tried', () => {
    const [s] = explainGaps([gap('c1', '2026-01-01T10:00:00Z', 'call.recording_ready')], [], logged(), { id: 'ep', events: ['call.ended'] });
    expect(s).toMatchObject({ verdict: 'never_tried' });
    expect(s!.reason).toMatch(/not subscribed to call.recording_ready/);
  });

  it('gives a rebuilt event an id that depends only on type and object', () => {
    expect(reconciledId('call.ended', 'c1')).toBe(reconciledId('call.ended', 'c1'));
    expect(reconciledId('call.ended', 'c1')).not.toBe(reconciledId('call.recording_ready', 'c1'));
    expect(reconciledId('call.ended', 'c1')).toMatch(/^evt_reconciled_[0-9a-f]{32}$/);
  });
});
