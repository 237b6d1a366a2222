/**
 * `campaign redial --outcome callback_scheduled --at-requested-time` end to end: a
 * campaign run to completion in the sandbox with an agent that schedules callbacks, then
 * the plan of waves: every callback in a wave released no earlier than the time the
 * customer asked for, inside the calling window of the contact's zone, and nothing
 * created on the service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/cli.js';
import { clientFor } from '../helpers/given.js';
import { requestedTime } from '../../src/reports/requested-time.js';
import { localMinute } from '../../src/campaigns/calling-hours.js';

let h: Harness;
let id = '';

async function api(method: string, path: string, body?: unknown): Promise<any> {
  const res = await clientFor(h.sandbox)(method, path, body);
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

let calls: any[] = [];
beforeAll(async () => {
  h = await harness({ timeScale: 600, seed: 31 });
  const agent = await api('POST', '/agents', { name: 'Callback desk', voice_name: 'Priya', greeting: 'Namaste', call_purpose: 'x', prompt: 'x', tools: ['schedule_callback', 'take_message'] });
  const c = await api('POST', '/campaigns/json', {
    name: 'Callbacks', agent_id: agent.id,
    contacts: Array.from({ length: 80 }, (_, i) => ({ phone_number: `+9196${String(5000 + i).padStart(8, '0')}`, name: `Contact ${i}` })),
  });
  id = c.id;
  await api('POST', `/campaigns/${id}/launch`);
  const end = Date.now() + 60_000;
  while ((await api('GET', `/campaigns/${id}`)).status !== 'completed') {
    if (Date.now() > end) throw new Error('the campaign did not complete');
    await new Promise((r) => setTimeout(r, 200));
  }
  calls = (await api('GET', `/calls?campaign_id=${id}&limit=200`)).calls;
}, 90_000);
afterAll(async () => h?.close());

const WINDOW = { start: 10 * 60, end: 19 * 60 };

describe('voicectl campaign redial --at-requested-time', () => {
  it('--json: each callback is in a wave released no earlier than its requested time, inside its calling window; nothing is created', async () => {
    const before = (await api('GET', '/campaigns?limit=100')).campaigns.length;
    const started = Date.now();
    const r = await h.run(['campaign', 'redial', id, '--outcome', 'callback_scheduled', '--at-requested-time', '--calling-hours', '10:00-19:00', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout);
    expect(plan.held_by_voicectl).toBe(false);
    const callbacks = calls.filter((c) => c.end_time && c.outcome === 'callback_scheduled');
    expect(callbacks.length).toBeGreaterThan(0);
    const planned = plan.waves.flatMap((w: any) => w.contacts.map((c: any) => ({ wave: w, contact: c })));
    // Every callback is either in a wave or listed as without a readable time; no other contact.
    const listed = [...planned.map((p: any) => p.contact.phone_number), ...plan.no_time.map((c: any) => c.phone_number)].sort();
    expect(listed).toEqual(callbacks.map((c) => c.phone_number).sort());
    expect(planned.length).toBeGreaterThan(0);
    for (const { wave, contact } of planned) {
      const call = callbacks.find((c) => c.phone_number === contact.phone_number);
      const asked = requestedTime(call.summary, Date.parse(call.end_time), 'Asia/Kolkata').at!;
      expect(Date.parse(contact.requested_time)).toBe(asked);
      const at = Date.parse(wave.at);
      expect(wave.zone).toBe('Asia/Kolkata');
      expect(wave.at).toMatch(/\+05:30$/);
      // Never before the time asked for, nor before now; always inside the window.
      expect(at).toBeGreaterThanOrEqual(asked);
      expect(at).toBeGreaterThanOrEqual(Math.floor(started / 60_000) * 60_000);
      const m = localMinute('Asia/Kolkata', at);
      expect(m).toBeGreaterThanOrEqual(WINDOW.start);
      expect(m).toBeLessThan(WINDOW.end);
      // Asked for a future time inside the window: called within the hour of it.
      const am = localMinute('Asia/Kolkata', asked);
      if (asked > started && am >= WINDOW.start && am < WINDOW.end) expect(at - asked).toBeLessThan(3_600_000);
      expect(wave.command).toContain(`--contacts callbacks-${wave.n}.json`);
      expect(wave.command).toContain('--calling-hours 10:00-19:00');
    }
    // Waves are in time order.
    const times = plan.waves.map((w: any) => Date.parse(w.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect((await api('GET', '/campaigns?limit=100')).campaigns.length).toBe(before);
  });

  it('prints the waves and says voicectl does not hold them; --dry-run sends nothing', async () => {
    const before = (await api('GET', '/campaigns?limit=100')).campaigns.length;
    const r = await h.run(['campaign', 'redial', id, '--outcome', 'callback_scheduled', '--at-requested-time', '--dry-run']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Wave 1: at \d{4}-\d{2}-\d{2} \d{2}:\d{2} Asia\/Kolkata \(\+05:30\), \d+ contacts?$/m);
    expect(r.stdout).toMatch(/voicectl campaign create --name .* --launch/);
    expect(r.stderr).toMatch(/voicectl does not hold these waves/);
    expect(r.stderr).toMatch(/Nothing was created or launched/);
    expect((await api('GET', '/campaigns?limit=100')).campaigns.length).toBe(before);
  });

  it('refuses --launch with --at-requested-time (exit 2), before any change', async () => {
    const r = await h.run(['campaign', 'redial', id, '--outcome', 'callback_scheduled', '--at-requested-time', '--launch', '--yes']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--at-requested-time prints the waves to schedule and creates nothing, so it does not take --launch/);
  });
});
