/**
 * A campaign run's results in one place: `campaign report --run JOURNAL` reports the run
 * as one campaign (its totals the sums of its waves'), then a section per wave and per
 * zone; `campaign followups --run` reads the same waves. Side by side, the columns of
 * waves whose names differ only after a long shared start stay told apart at any width.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { columnNames } from '../../src/reports/text.js';
import { simWorldForFile, writeContacts } from '../campaigns/run/sim.js';

describe('columnNames', () => {
  it('cuts the shared start of wave names, not their end', () => {
    const names = ['Renewals (run 4f1a2c, all waves)', 'Renewals (wave 1, run 4f1a2c)', 'Renewals (wave 2, run 4f1a2c)', 'Renewals (run 4f1a2c, Asia/Kolkata)'];
    for (const max of [8, 12, 18, 40]) {
      const heads = columnNames(names, max);
      expect(new Set(heads).size, `at ${max}: ${heads.join(' | ')}`).toBe(names.length);
      for (const h of heads) expect(h.length).toBeLessThanOrEqual(max);
    }
    expect(columnNames(['Diwali offer, week 1', 'Diwali offer, week 2'], 18)).toEqual(['…week 1', '…week 2']);
  });

  it('leaves short names as they are, and cuts a lone long name in the middle', () => {
    expect(columnNames(['Survey', 'Renewals'], 18)).toEqual(['Survey', 'Renewals']);
    expect(columnNames(['A very long campaign name indeed'], 18)).toEqual(['A very l…me indeed']);
  });
});

// 10:00 UTC: India (until 15:30 UTC) and London (from 09:00 UTC) both open.
const w = simWorldForFile('voicectl-run-report-', { startAt: '2026-01-15T10:00:00Z', timeScale: 2000 });

describe('campaign report --run', () => {
  it('reports the run as one campaign whose totals are the sums of its waves, then each wave and each zone', async () => {
    const list = Array.from({ length: 15 }, (_, i) => [
      { phone_number: `+9198765${String(70_000 + i)}`, name: `India ${i}` },
      { phone_number: `+4479111${String(70_000 + i)}`, name: `London ${i}` },
    ]).flat();
    const file = writeContacts(w.dir, 'whole.json', list);
    const ran = await w.run(['campaign', 'run', '--name', 'Whole', '--agent', w.agentId, '--contacts', file, '--wave-size', '10', '--yes', '--json']);
    expect(ran.exitCode, ran.stderr).toBe(0);
    const journal = join(w.dir, 'whole.run.json');

    const r = await w.run(['campaign', 'report', '--run', journal, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    const [whole] = out.campaigns;
    expect(out.waves.length).toBe(3);
    const sum = (parts: Array<Record<string, any>>, f: (x: Record<string, any>) => number) => parts.reduce((n, x) => n + f(x), 0);
    for (const parts of [out.waves, out.zones]) {
      expect(whole.contacts).toBe(sum(parts, (x) => x.contacts));
      expect(whole.calls).toBe(sum(parts, (x) => x.calls));
      expect(whole.finished_calls).toBe(sum(parts, (x) => x.finished_calls));
      expect(whole.connected).toBe(sum(parts, (x) => x.connected));
      for (const [k, v] of Object.entries(whole.outcomes)) expect(v, k).toBe(sum(parts, (x) => x.outcomes[k] ?? 0));
    }
    expect(whole.contacts).toBe(30);
    expect(out.zones.map((z: { zone: string }) => z.zone).sort()).toEqual(['Asia/Kolkata', expect.stringMatching(/^Europe\//)]);

    const md = await w.run(['campaign', 'report', '--run', journal, '--format', 'md']);
    expect(md.exitCode, md.stderr).toBe(0);
    expect(md.stdout).toContain(`Whole (run ${out.run.run_id}, all waves)`);
    for (const n of [1, 2, 3]) expect(md.stdout).toContain(`Whole (wave ${n}, run ${out.run.run_id})`);
    expect(md.stdout).toContain(`Whole (run ${out.run.run_id}, Asia/Kolkata)`);

    const term = await w.run(['campaign', 'report', '--run', journal], { tty: { stdout: true, columns: 80 } });
    expect(term.exitCode, term.stderr).toBe(0);
    expect(term.stdout).toContain('…wave 1, run');

    const follow = await w.run(['campaign', 'followups', '--run', journal, '--json']);
    expect(follow.exitCode, follow.stderr).toBe(0);
    expect(Array.isArray(JSON.parse(follow.stdout))).toBe(true);

    const both = await w.run(['campaign', 'report', 'some-id', '--run', journal]);
    expect(both.exitCode).toBe(2);
  }, 60_000);
});
