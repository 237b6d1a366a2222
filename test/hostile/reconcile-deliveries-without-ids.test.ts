/**
 * `events reconcile --endpoint` against a server whose delivery records name no event, call
 * or campaign: only a time and a status. The endpoint was disabled while campaign B ran,
 * so B's last calls have no records at all; the records that exist are campaign A's (an
 * earlier one, minutes before) and those of B's first calls, all "delivered". None of them
 * is evidence that B's missing events were delivered.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';
import { eachHostile, sendJson } from './client-harness.js';

const { start, closeAfter } = eachHostile();

const at = (m: number, s = 0) => `2026-03-02T09:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.000Z`;
const call = (id: string, campaign: string, end: string) => ({
  call_id: id, campaign_id: campaign, status: 'completed', start_time: end.replace(/:\d\d\.000Z$/, ':00.000Z'), end_time: end, has_recording: false,
  phone_number: '+919876543210', duration_seconds: 40,
});

// Campaign A (earlier): calls ended 09:50–09:54, campaign completed 09:55. Campaign B: b1–b3
// ended 09:56–09:58 and were delivered; then the endpoint was disabled for b4–b6 and B's completion.
const A = ['a1', 'a2', 'a3', 'a4', 'a5'].map((id, i) => call(id, 'cmp_A', at(50 + i)));
const B = [call('b1', 'cmp_B', at(56)), call('b2', 'cmp_B', at(57)), call('b3', 'cmp_B', at(58)), call('b4', 'cmp_B', at(58, 40)), call('b5', 'cmp_B', at(59, 30)), call('b6', 'cmp_B', '2026-03-02T10:00:30.000Z')];
const records = [
  ...[...A, ...B.slice(0, 3)].map((c) => ({ event_type: 'call.ended', status: 'delivered', attempts: 1, last_response_code: 200, created_at: c.end_time })),
  { event_type: 'campaign.completed', status: 'delivered', attempts: 1, last_response_code: 200, created_at: at(55) },
];

function server(deliveries: unknown[]) {
  return start((req, res) => {
    const u = new URL(req.url!, 'http://x');
    if (u.pathname === '/calls') {
      const list = B.filter((c) => c.campaign_id === u.searchParams.get('campaign_id'));
      const offset = Number(u.searchParams.get('offset') ?? 0);
      const limit = Number(u.searchParams.get('limit') ?? 50);
      return sendJson(res, 200, { calls: list.slice(offset, offset + limit), total: list.length, limit, offset });
    }
    if (u.pathname === '/campaigns/cmp_B') return sendJson(res, 200, { id: 'cmp_B', status: 'completed', completed_at: '2026-03-02T10:01:00.000Z', contacts_by_status: { completed: 6 } });
    if (u.pathname === '/webhooks/endpoints') return sendJson(res, 200, { endpoints: [{ id: 'ep_1', url: 'https://app.example.com/hooks', enabled: false }] });
    if (u.pathname === '/webhooks/endpoints/ep_1/deliveries') {
      const offset = Number(u.searchParams.get('offset') ?? 0);
      const limit = Number(u.searchParams.get('limit') ?? 50);
      return sendJson(res, 200, { deliveries: deliveries.slice(offset, offset + limit), total: deliveries.length, limit, offset });
    }
    sendJson(res, 404, { error: 'not found', status_code: 404 });
  });
}

/** The log of B's app: b1–b3's call.ended, as `listen --log` writes them. */
function logOfB(): string {
  const t = tempDir();
  closeAfter({ close: async () => t.remove() });
  const file = join(t.dir, 'events.jsonl');
  writeFileSync(file, B.slice(0, 3).map((c, i) => JSON.stringify({ id: `evt_b${i + 1}`, type: 'call.ended', created_at: c.end_time, data: c })).join('\n') + '\n');
  return file;
}

describe('events reconcile: delivery records without ids', () => {
  it('never says delivered for events the disabled endpoint never had: no record near them is theirs', async () => {
    const h = await server(records);
    const log = logOfB();
    const r = await h.run(['events', 'reconcile', '--log', log, '--campaign', 'cmp_B', '--endpoint', 'ep_1', '--json']);
    expect(r.exitCode, r.stderr).toBe(1);
    const rows = JSON.parse(r.stdout) as Array<{ type: string; object_id: string; delivery: { verdict: string; reason: string } }>;
    expect(rows.map((g) => `${g.type} ${g.object_id}`)).toEqual(['call.ended b4', 'call.ended b5', 'call.ended b6', 'campaign.completed cmp_B']);
    for (const g of rows) {
      expect(g.delivery.verdict, `${g.object_id}: ${g.delivery.reason}`).toBe('never_tried');
      expect(g.delivery.reason).toMatch(/no delivery record, and the endpoint is disabled/);
    }
    // The table says the same, in its usual columns.
    const table = await h.run(['events', 'reconcile', '--log', log, '--campaign', 'cmp_B', '--endpoint', 'ep_1'], { COLUMNS: '250' });
    expect(table.stdout).toMatch(/^EVENT\s+OBJECT\s+CAMPAIGN\s+HAPPENED \([^)]+\)\s+WHY\s+VERDICT/);
    expect(table.stdout).not.toMatch(/delivered/);
  });

  it('records that cannot be told apart make the verdict unknown, never delivered', async () => {
    // Two "delivered" records 20 s either side of b4, and one without a time or type: b4's could be any of them.
    const h = await server([
      ...records,
      { event_type: 'call.ended', status: 'delivered', created_at: at(58, 20) },
      { event_type: 'call.ended', status: 'delivered', created_at: at(59, 0) },
      { status: 'delivered' },
    ]);
    const r = await h.run(['events', 'reconcile', '--log', logOfB(), '--campaign', 'cmp_B', '--endpoint', 'ep_1', '--json']);
    expect(r.exitCode, r.stderr).toBe(1);
    const rows = JSON.parse(r.stdout) as Array<{ object_id: string; delivery: { verdict: string; reason: string } }>;
    expect(rows.map((g) => g.delivery.verdict)).not.toContain('delivered');
    const b4 = rows.find((g) => g.object_id === 'b4')!;
    expect(b4.delivery.verdict).toBe('unknown');
    expect(b4.delivery.reason).toMatch(/equally close|could as well be another event's/);
    // b6 has no record near it, but one record names neither event nor time: it could be b6's.
    expect(rows.find((g) => g.object_id === 'b6')!.delivery).toMatchObject({ verdict: 'unknown' });
  });
});
