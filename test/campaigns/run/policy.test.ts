/**
 * The policy of a `campaign run`, checked from what the sandbox recorded: retries after
 * the delay and never after a do_not_call outcome, the daily cap, the deadline, and
 * Ctrl-C pausing the run (the wave in flight finishes on the service) until --resume.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clientFor, givenCampaign, givenFinishedCampaign } from '../../helpers/given.js';
import { tempDir, type TempDir } from '../../helpers/temp.js';
import { localMinuteOf, placedCalls, simWorld, threeZoneContacts, writeContacts, type SimWorld } from './sim.js';

let tmp: TempDir;
let w: SimWorld | undefined;
beforeEach(() => {
  tmp = tempDir('voicectl-run-policy-');
});
afterEach(async () => {
  await w?.close();
  w = undefined;
  tmp.remove();
});

function byPhone(calls: ReturnType<typeof placedCalls>): Map<string, ReturnType<typeof placedCalls>> {
  const m = new Map<string, ReturnType<typeof placedCalls>>();
  for (const c of calls) m.set(c.phone, [...(m.get(c.phone) ?? []), c]);
  for (const list of m.values()) list.sort((a, b) => a.start - b.start);
  return m;
}

describe('campaign run policy', () => {
  it('--attempts 3 redials after the delay, never after a do_not_call outcome', async () => {
    w = await simWorld(tmp.dir, { startAt: '2026-01-15T15:00:00Z', timeScale: 3000 });
    const list = threeZoneContacts(100).filter((c) => !c.phone_number.startsWith('+91'));
    const file = writeContacts(tmp.dir, 'retry.json', list);
    const r = await w.run(['campaign', 'run', '--name', 'Retry', '--agent', w.agentId, '--contacts', file, '--wave-size', '100',
      '--attempts', '3', '--retry-after', '2h', '--retry-on', 'no_answer,completed', '--yes', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const calls = byPhone(placedCalls(w.sandbox));
    expect(calls.size).toBe(200);
    let dnc = 0;
    let redialed = 0;
    for (const [phone, list] of calls) {
      expect(list.length, phone).toBeLessThanOrEqual(3);
      for (let i = 0; i < list.length; i++) {
        const call = list[i]!;
        const next = list[i + 1];
        if (call.outcome === 'do_not_call') {
          dnc++;
          expect(next, `${phone} was dialed again after do_not_call`).toBeUndefined();
        }
        if (call.status === 'failed') expect(next, `${phone}: failed is not in --retry-on`).toBeUndefined();
        if (next) {
          redialed++;
          expect(next.start - call.end!, `${phone} redialed too soon`).toBeGreaterThanOrEqual(2 * 3_600_000 - 10 * 60_000);
        }
        if (!next && i < 2 && call.outcome !== 'do_not_call' && ['no_answer', 'completed'].includes(call.status)) {
          throw new Error(`${phone}: ${call.status} after ${i + 1} attempts was not redialed`);
        }
      }
    }
    for (const c of [...calls.values()].flat()) {
      const start = localMinuteOf(c.phone, c.start);
      expect(start >= 9 * 60 && start < 21 * 60, `${c.phone} dialed outside its window`).toBe(true);
    }
    expect(dnc).toBeGreaterThan(0);
    expect(redialed).toBeGreaterThan(100);
    const summary = JSON.parse(r.stdout);
    expect(summary.dialed).toBe([...calls.values()].reduce((n, l) => n + l.length, 0));
  }, 90_000);

  it('--daily-cap holds for every UTC day', async () => {
    w = await simWorld(tmp.dir, { startAt: '2026-01-15T15:00:00Z' });
    const file = writeContacts(tmp.dir, 'cap.json', threeZoneContacts(40));
    const r = await w.run(['campaign', 'run', '--name', 'Cap', '--agent', w.agentId, '--contacts', file, '--wave-size', '30', '--daily-cap', '50', '--yes', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const perDay = new Map<string, number>();
    for (const c of placedCalls(w.sandbox)) {
      const day = new Date(c.start).toISOString().slice(0, 10);
      perDay.set(day, (perDay.get(day) ?? 0) + 1);
    }
    expect([...perDay.values()].reduce((a, b) => a + b, 0)).toBe(120);
    expect(perDay.size).toBeGreaterThanOrEqual(3);
    for (const [day, n] of perDay) expect(n, day).toBeLessThanOrEqual(50);
    expect(r.stderr).toContain('Daily cap of 50 contacts reached');
  }, 90_000);

  it('--daily-cap counts the days of the user\'s zone (--tz), kept in the journal', async () => {
    w = await simWorld(tmp.dir, { startAt: '2026-01-15T15:00:00Z' });
    const file = writeContacts(tmp.dir, 'cap-ist.json', threeZoneContacts(40));
    const r = await w.run(['campaign', 'run', '--name', 'Cap IST', '--agent', w.agentId, '--contacts', file, '--wave-size', '30', '--daily-cap', '50', '--tz', 'Asia/Kolkata', '--yes', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const perDay = new Map<string, number>();
    // The calendar day in India: UTC plus 5:30.
    for (const c of placedCalls(w.sandbox)) {
      const day = new Date(c.start + 330 * 60_000).toISOString().slice(0, 10);
      perDay.set(day, (perDay.get(day) ?? 0) + 1);
    }
    expect([...perDay.values()].reduce((a, b) => a + b, 0)).toBe(120);
    for (const [day, n] of perDay) expect(n, day).toBeLessThanOrEqual(50);
    expect(r.stderr).toContain('(Asia/Kolkata); waiting');
  }, 90_000);

  it('--deadline: nothing is released after it, and what is left is reported expired', async () => {
    // 18:00 UTC: New York is open, India (23:30) not until 03:30 UTC. A slower clock, so
    // setting up the test cannot carry the start anywhere near India's morning.
    w = await simWorld(tmp.dir, { startAt: '2026-01-15T18:00:00Z', timeScale: 2000 });
    const file = writeContacts(tmp.dir, 'late.json', threeZoneContacts(20).filter((c) => !c.phone_number.startsWith('+44')));
    const r = await w.run(['campaign', 'run', '--name', 'Late', '--agent', w.agentId, '--contacts', file, '--deadline', '4h', '--yes', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const calls = placedCalls(w.sandbox);
    expect(calls.filter((c) => c.phone.startsWith('+91'))).toEqual([]);
    expect(calls.filter((c) => c.phone.startsWith('+1'))).toHaveLength(20);
    const summary = JSON.parse(r.stdout);
    expect(summary.contacts).toEqual({ done: 20, expired: 20 });
    expect(r.stderr).toContain('20 contacts expired: not dialed before the deadline');
    const journal = JSON.parse(readFileSync(join(tmp.dir, 'late.run.json'), 'utf8'));
    expect(journal.contacts.filter((c: { state: string }) => c.state === 'expired').every((c: { phone_number: string }) => c.phone_number.startsWith('+91'))).toBe(true);
  }, 60_000);

  it('Ctrl-C pauses: no further wave, the one in flight finishes on the service, --resume continues', async () => {
    w = await simWorld(tmp.dir, { startAt: '2026-01-15T15:00:00Z' });
    const list = threeZoneContacts(20).filter((c) => !c.phone_number.startsWith('+91'));
    const file = writeContacts(tmp.dir, 'pause.json', list);
    const running = w.start(['campaign', 'run', '--name', 'Pause', '--agent', w.agentId, '--contacts', file, '--wave-size', '10', '--yes']);
    await running.waitForOutput('Wave 1: launched');
    expect(await running.interrupt()).toBe(130);
    expect(running.stderr()).toMatch(/Paused: no further wave is released\. Wave 1 is on the service with \d+ calls? \((just launched|as of the last read)\) still in flight: a released wave cannot be stopped \(the API has no cancel\), so they finish there\./);
    expect(running.stderr()).toContain('Continue with: voicectl campaign run --resume');
    const journal = JSON.parse(readFileSync(join(tmp.dir, 'pause.run.json'), 'utf8'));
    expect(journal.state).toBe('paused');
    expect(journal.waves).toHaveLength(1);
    expect(new Set(placedCalls(w.sandbox).map((c) => c.campaign)).size).toBe(1);

    const status = await w.run(['campaign', 'run', 'status', join(tmp.dir, 'pause.run.json'), '--json']);
    expect(status.exitCode, status.stderr).toBe(0);
    const s = JSON.parse(status.stdout);
    expect(s.state).toBe('paused');
    expect(s.waves[0].service_status).toMatch(/running|completed/);
    expect(s.contacts).toEqual({ in_wave: 10, waiting: 30 });
    expect(s.after_wave).toBe(1);
    expect(s.next_wave_at).toBeUndefined();
    const human = await w.run(['campaign', 'run', 'status', join(tmp.dir, 'pause.run.json')], { tty: true });
    expect(human.exitCode, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^Run "Pause" \([0-9a-f]{6}\): paused \(interrupted\)$/m);
    expect(human.stdout).toContain('Next wave: after wave 1 has finished (one wave is on the service at a time)');
    expect(human.stderr).toContain('Continue with: voicectl campaign run --resume');

    const r = await w.run(['campaign', 'run', '--resume', join(tmp.dir, 'pause.run.json'), '--yes', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).contacts).toEqual({ done: 40 });
    expect(placedCalls(w.sandbox)).toHaveLength(40);
  }, 60_000);

  it('never dials an excluded number: the --exclude lists at the start, and again, re-read, on --resume', async () => {
    w = await simWorld(tmp.dir, { startAt: '2026-01-15T15:00:00Z' });
    const list = threeZoneContacts(20).filter((c) => !c.phone_number.startsWith('+91'));
    const file = writeContacts(tmp.dir, 'ex.json', list);
    const dnc = join(tmp.dir, 'dnc.csv');
    writeFileSync(dnc, `phone\n${list[0]!.phone_number}\n${list[1]!.phone_number}\n`);
    const running = w.start(['campaign', 'run', '--name', 'Ex', '--agent', w.agentId, '--contacts', file, '--wave-size', '10', '--exclude', dnc, '--yes']);
    await running.waitForOutput('Wave 1: launched');
    expect(await running.interrupt()).toBe(130);
    expect(running.stderr()).toContain('Excluded 2 contacts: 2 by dnc.csv');
    const journal = JSON.parse(readFileSync(join(tmp.dir, 'ex.run.json'), 'utf8'));
    const waiting = journal.contacts.filter((c: { state: string }) => c.state === 'waiting').map((c: { phone_number: string }) => c.phone_number);
    expect(waiting).toHaveLength(28);
    // Two more numbers asked not to be called while the run was paused.
    writeFileSync(dnc, `phone\n${list[0]!.phone_number}\n${list[1]!.phone_number}\n${waiting[0]}\n${waiting[1]}\n`);
    const r = await w.run(['campaign', 'run', '--resume', join(tmp.dir, 'ex.run.json'), '--yes', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('2 waiting contacts now on an exclude list are left out.');
    expect(JSON.parse(r.stdout).contacts).toEqual({ done: 36, excluded: 4 });
    const dialed = new Set(placedCalls(w.sandbox).map((c) => c.phone));
    expect(dialed.size).toBe(36);
    for (const n of [list[0]!.phone_number, list[1]!.phone_number, waiting[0], waiting[1]]) expect(dialed.has(n), n).toBe(false);
  }, 60_000);

  it('--from-campaign dials the contacts of a draft, which itself is never launched; a launched one is refused', async () => {
    w = await simWorld(tmp.dir, { startAt: '2026-01-15T15:00:00Z' });
    const api = clientFor(w.sandbox);
    const draft = await givenCampaign(api, w.agentId, 12, undefined, 'Imported');
    const r = await w.run(['campaign', 'run', '--name', 'From draft', '--agent', w.agentId, '--from-campaign', draft.id, '--journal', join(tmp.dir, 'from.run.json'), '--yes', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).contacts).toEqual({ done: 12 });
    const calls = placedCalls(w.sandbox);
    expect(calls).toHaveLength(12);
    expect(calls.some((c) => c.campaign === draft.id)).toBe(false);
    expect((await api('GET', `/campaigns/${draft.id}`)).body.status).toBe('draft');

    const launched = await givenFinishedCampaign(api, { agentId: w.agentId, contacts: 2 });
    const refused = await w.run(['campaign', 'run', '--name', 'Again', '--agent', w.agentId, '--from-campaign', launched.id, '--journal', join(tmp.dir, 'again.run.json'), '--yes']);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain(`Campaign ${launched.id} is completed, not a draft`);
  }, 60_000);
});
