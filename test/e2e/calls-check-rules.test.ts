/**
 * The rules file refused before any request (its line, exit 2), and a flaky judge
 * damped by repeat/pass.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/cli.js';
import { clientFor, givenFinishedCampaign } from '../helpers/given.js';

describe('calls check rules files', () => {
  let h: Harness;
  let dir: string;
  let campaignId: string;

  beforeAll(async () => {
    h = await harness({ startAt: '2026-03-10T05:30:00Z' });
    dir = mkdtempSync(join(tmpdir(), 'voicectl-rules-'));
    campaignId = (await givenFinishedCampaign(clientFor(h.sandbox), { contacts: 9 })).id;
  }, 60_000);

  afterAll(async () => {
    await h?.close();
  });

  const BAD: Array<[string, string, RegExp]> = [
    ['unknown kind', 'rules:\n  - id: a\n    kind: first_turn\n    severity: error\n', /rules\.yaml:3: rule "a": unknown kind "first_turn"/],
    ['bad regex', 'rules:\n  - {id: a, kind: never_says, phrases: [x]}\n  - id: b\n    kind: first_agent_turn_matches\n    pattern: "(unclosed"\n', /rules\.yaml:5: rule "b": "\(unclosed" is not a valid regular expression/],
    ['wrong type', 'rules:\n  - id: a\n    kind: max_duration\n    seconds: "ten"\n', /rules\.yaml:4: rule "a": seconds must be a number/],
    ['unknown field', 'rules:\n  - id: a\n    kind: outcome_in\n    outcomes: [x]\n    within_turns: 2\n', /rules\.yaml:5: rule "a": outcome_in has no field "within_turns"/],
    ['bad severity', 'rules:\n  - {id: a, kind: outcome_in, outcomes: [x], severity: fatal}\n', /rules\.yaml:2: rule "a": severity must be error or warn/],
    ['bad YAML', 'rules:\n  - id: a\n   kind: [\n', /rules\.yaml:\d+:/],
    ['judge pass over repeat', 'rules:\n  - id: j\n    kind: judge\n    command: "true"\n    repeat: 2\n    pass: 3\n', /rules\.yaml:6: rule "j": pass \(3\) is more than repeat \(2\)/],
  ];

  it.each(BAD)('refuses a rules file with %s, with its line, before any request (exit 2)', async (_what, text, message) => {
    const file = join(dir, 'rules.yaml');
    writeFileSync(file, text);
    const before = h.sandbox.requests.length;
    const r = await h.run(['calls', 'check', '--rules', file, '--campaign', campaignId]);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\bat .*\.js:\d+/);
    expect(r.exitCode).toBe(2);
    expect(h.sandbox.requests.length).toBe(before);
  });

  it('refuses a missing source, two sources, and --harvest-dnc without an opt-out rule (exit 2)', async () => {
    const file = join(dir, 'ok.yaml');
    writeFileSync(file, 'rules:\n  - {id: o, kind: outcome_in, outcomes: [x]}\n');
    expect((await h.run(['calls', 'check', '--rules', file])).exitCode).toBe(2);
    expect((await h.run(['calls', 'check', '--rules', file, '--campaign', campaignId, '--since', '1d'])).exitCode).toBe(2);
    const r = await h.run(['calls', 'check', '--rules', file, '--campaign', campaignId, '--harvest-dnc', join(dir, 'dnc.txt')]);
    expect(r.stderr).toContain('opt_out_honoured');
    expect(r.exitCode).toBe(2);
  });

  it('a judge that fails one run in three gives a stable verdict with repeat: 3, pass: 2', async () => {
    // Every third run of the judge fails, whichever call it is judging.
    const judge = join(dir, 'flaky.mjs');
    writeFileSync(judge, `import { appendFileSync, readFileSync } from 'node:fs';
process.stdin.resume();
process.stdin.on('end', () => {
  appendFileSync(process.env.COUNTER, 'x');
  const n = readFileSync(process.env.COUNTER, 'utf8').length;
  if (n % 3 === 0) { console.log('run ' + n + ' says no'); process.exit(1); }
  process.exit(0);
});`);
    const run = async (repeat: number, pass: number, counter: string) => {
      const file = join(dir, `judge-${repeat}.yaml`);
      writeFileSync(file, `rules:\n  - {id: polite, kind: judge, severity: error, command: "node flaky.mjs", repeat: ${repeat}, pass: ${pass}}\n`);
      const r = await h.run(['calls', 'check', '--rules', file, '--campaign', campaignId, '--json', '--concurrency', '1'], { env: { COUNTER: join(dir, counter) } });
      return { exit: r.exitCode, fails: JSON.parse(r.stdout).rules[0].fail as number };
    };
    // Undamped, the flakiness shows as failures.
    const undamped = await run(1, 1, 'c1');
    expect(undamped.exit).toBe(1);
    expect(undamped.fails).toBeGreaterThan(0);
    // Damped, twice over: every call passes both times.
    expect(await run(3, 2, 'c2')).toEqual({ exit: 0, fails: 0 });
    expect(await run(3, 2, 'c2')).toEqual({ exit: 0, fails: 0 });
  });

  it('says so when no call matched', async () => {
    const file = join(dir, 'none.yaml');
    writeFileSync(file, 'rules:\n  - {id: d, kind: max_duration, seconds: 100000}\n');
    const r = await h.run(['calls', 'check', '--rules', file, '--since', '2099-01-01']);
    expect(r.stderr).toContain('No finished call matched: nothing was checked.');
  });

  it('--sample N --seed S checks the same calls every time', async () => {
    const file = join(dir, 'sample.yaml');
    writeFileSync(file, 'rules:\n  - {id: d, kind: max_duration, seconds: 100000}\n');
    const ids = async (seed: string) => {
      const r = await h.run(['calls', 'check', '--rules', file, '--campaign', campaignId, '--sample', '3', '--seed', seed, '--json']);
      return JSON.parse(r.stdout).results.map((v: any) => v.call_id);
    };
    const a = await ids('1');
    expect(a).toHaveLength(3);
    expect(await ids('1')).toEqual(a);
    expect(await ids('2')).not.toEqual(a);
  });
});
