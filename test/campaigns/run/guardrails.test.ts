/**
 * A run's guardrails on the sandbox's simulated clock: answers collapse after the 300th
 * call (sandbox --degrade), and the run pauses within one wave of it with exit 7, says
 * what it saw, records it in the journal; --resume continues, --accept-rates takes the
 * new rate. The spend follows the rate card to the minor unit, in run status and in
 * campaign report --run.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDegrade } from '../../../src/sandbox/degrade.js';
import { simWorldForFile, writeContacts } from './sim.js';

/** 1,000 Indian numbers, in India's window from 09:00 IST (03:30 UTC). */
const india = (n: number) => Array.from({ length: n }, (_, i) => ({ phone_number: `+9198765${String(10_000 + i)}`, name: `Lead ${i}` }));

const w = simWorldForFile('voicectl-run-guardrails-', { startAt: '2026-01-15T04:00:00Z', degrade: [parseDegrade('after=300,connect=0.1')] });

describe('campaign run with answers that collapse after 300 calls', () => {
  it('pauses within one wave of the drop, exit 7, with what it saw in the message and the journal; the report\'s spend; --resume pauses again, --resume --accept-rates finishes', async () => {
    const file = writeContacts(w.dir, 'collapse.json', india(1000));
    writeFileSync(join(w.dir, 'rates.yaml'), 'currency: INR\nrates:\n  IN: {per_minute: 1.20, connection: 0.10}\n');
    const args = ['campaign', 'run', '--name', 'Collapse', '--agent', w.agentId, '--contacts', file, '--wave-size', '100', '--baseline-connect-rate', '0.68', '--rate-card', join(w.dir, 'rates.yaml')];
    const plan = await w.run([...args, '--dry-run', '--json']);
    expect(plan.exitCode, plan.stderr).toBe(0);
    const cost = JSON.parse(plan.stdout).forecast.cost;
    expect(cost.currency).toBe('INR');
    expect(cost.low_minor_units).toBeLessThanOrEqual(cost.high_minor_units);
    expect(cost.assumed).toMatch(/no call history/);

    const r = await w.run([...args, '--yes']);
    expect(r.exitCode, r.stderr).toBe(7);
    expect(r.stderr).toMatch(/The answer-rate breaker paused the run: connect rate \d+% over the last \d+ dials against 68% set by --baseline-connect-rate\. No further wave is released/);
    // The two ways on, each a command on a line of its own.
    expect(r.stderr).toMatch(/campaign report --run .*collapse\.run\.json/);
    expect(r.stderr).toMatch(/Then continue, still comparing with 68%:\n\s+voicectl campaign run --resume \S*collapse\.run\.json.*\n/);
    expect(r.stderr).toMatch(/or take \d+% as the new connect rate and continue:\n\s+voicectl campaign run --resume \S*collapse\.run\.json.* --accept-rates/);
    const journalPath = join(w.dir, 'collapse.run.json');
    const j = JSON.parse(readFileSync(journalPath, 'utf8'));
    expect(j.state).toBe('paused');
    expect(j.paused_reason).toMatch(/^answer-rate breaker: connect rate/);
    const done = j.waves.filter((x: { state: string }) => x.state === 'done').length;
    // The drop starts with the fourth wave (calls 301-400): the run stops after it, or at the latest after the fifth.
    expect(done).toBeGreaterThanOrEqual(4);
    expect(done).toBeLessThanOrEqual(5);
    expect(j.guardrails.trips).toHaveLength(1);
    expect(j.guardrails.state.tripped.metric).toBe('connect');

    // The spend, to the paisa: every connected call's whole minutes at 1.20 plus 0.10.
    const calls = [...w.sandbox.world.orgs.values()].flatMap((o) => Object.values(o.calls)).filter((c) => c.status === 'completed');
    const expected = calls.reduce((sum, c) => sum + Math.ceil(c.duration_seconds! / 60) * 120 + 10, 0);
    expect(j.guardrails.spend.minor).toBe(expected);
    const status = await w.run(['campaign', 'run', 'status', journalPath, '--json']);
    expect(JSON.parse(status.stdout).spend.minor_units).toBe(expected);
    expect(JSON.parse(status.stdout).breaker.tripped.metric).toBe('connect');
    const human = await w.run(['campaign', 'run', 'status', journalPath]);
    expect(human.stdout).toContain('Next wave: none until the run is resumed (the answer-rate breaker paused it)');
    expect(human.stdout).toMatch(/Answer-rate breaker: paused the run .*; look at the last waves' calls \(voicectl campaign report --run /);
    expect(human.stderr).toMatch(/Continue with: voicectl campaign run --resume \S*collapse\.run\.json.*\nor take the new connect rate \(\d+%\) as the baseline: .* --accept-rates/);

    // The report of the run: the same spend, from the calls the service returns, per country.
    const report = await w.run(['campaign', 'report', '--run', journalPath, '--json']);
    expect(report.exitCode, report.stderr).toBe(0);
    const whole = JSON.parse(report.stdout).campaigns[0];
    expect(whole.spend).toMatchObject({ currency: 'INR', minor_units: expected, unpriced: {} });
    expect(whole.spend.projected.contacts_left).toBe(j.contacts.filter((c: { state: string }) => c.state === 'waiting').length);
    expect(whole.spend.by_country).toEqual([expect.objectContaining({ country: 'IN', minor_units: expected })]);

    // --resume after a look: the rate is still low, so it pauses again, exit 7.
    const looked = await w.run(['campaign', 'run', '--resume', journalPath, '--yes', '--json']);
    expect(looked.exitCode, looked.stderr).toBe(7);
    expect(looked.stderr).toMatch(/Continuing after a look/);
    // For a script: one JSON error object, its code and the commands that go on.
    const error = JSON.parse(looked.stderr.trim().split('\n').pop()!);
    expect(error).toMatchObject({ code: 'answer_rate_breaker', exit_code: 7, details: { metric: 'connect', baseline: { connect_rate: 0.68, source: 'flag' } } });
    expect(error.details.accept_rates).toMatch(/--resume \S*collapse\.run\.json.* --accept-rates$/);
    const again = JSON.parse(readFileSync(journalPath, 'utf8'));
    expect(again.state).toBe('paused');
    expect(again.guardrails.trips).toHaveLength(2);
    expect(again.guardrails.trips[0].resumed).toBe('looked');
    // Again within one wave of 100 after the resume (the evidence starts from zero).
    expect(again.waves.filter((x: { state: string }) => x.state === 'done').length - done).toBeLessThanOrEqual(2);

    const resumed = await w.run(['campaign', 'run', '--resume', journalPath, '--accept-rates', '--yes']);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/baseline is now the rate you accepted/);
    const after = JSON.parse(readFileSync(journalPath, 'utf8'));
    expect(after.state).toBe('finished');
    expect(after.guardrails.trips[1].resumed).toBe('accepted');
    const all = [...w.sandbox.world.orgs.values()].flatMap((o) => Object.values(o.calls)).filter((c) => c.status === 'completed');
    expect(after.guardrails.spend.minor).toBe(all.reduce((sum, c) => sum + Math.ceil(c.duration_seconds! / 60) * 120 + 10, 0));
  }, 180_000);

  it('refuses --accept-rates without a paused run, and a rate card it cannot read', async () => {
    const a = await w.run(['campaign', 'run', '--name', 'X', '--agent', w.agentId, '--contacts', 'none.json', '--accept-rates']);
    expect(a.exitCode).toBe(2);
    writeFileSync(join(w.dir, 'bad.yaml'), 'currency: RUPEES\nrates: {IN: {per_minute: 1}}\n');
    const b = await w.run(['campaign', 'run', '--name', 'X', '--agent', w.agentId, '--contacts', writeContacts(w.dir, 'x.json', india(2)), '--rate-card', join(w.dir, 'bad.yaml'), '--dry-run']);
    expect(b.exitCode).toBe(2);
    expect(b.stderr).toMatch(/--rate-card .*bad.yaml: currency must be an ISO 4217 code/);
  });
});
