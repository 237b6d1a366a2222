/**
 * `calls check` and `calls pin` against the sandbox: personas make each call's verdict
 * known in advance, so every rule kind is seen to pass, fail or skip where it should.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseJunit } from 'junit2json';
import { harness, type Harness } from '../../helpers/cli.js';
import { campaignDone, type Client, clientFor, givenAgent, givenFinishedCampaign } from '../../helpers/given.js';

describe('over a finished campaign', () => {
  // 11:00 in India: inside calling hours there, 00:30 in New York.
  const START = '2026-03-10T05:30:00Z';

  const PEOPLE = [
    { phone_number: '+919810000001', name: 'Ravi Kumar', extra: { sandbox_persona: 'interested' } },
    { phone_number: '+919810000002', name: 'Meena Iyer', extra: { sandbox_persona: 'busy' } },
    { phone_number: '+919810000003', name: 'Arjun Das', extra: { sandbox_persona: 'opt_out' } },
    { phone_number: '+919810000004', name: 'Kavya Rao', extra: { sandbox_persona: 'no_answer' } },
    { phone_number: '+919810000005', name: 'Sunil Shah', extra: { sandbox_persona: 'wrong_language' } },
    { phone_number: '+12125550123', name: 'Dana Smith', extra: { sandbox_persona: 'interested' } },
  ];
  const HINDI_PEOPLE = [
    { phone_number: '+919810000007', name: 'Pooja Verma', extra: { sandbox_persona: 'interested' } },
    { phone_number: '+919810000008', name: 'Amit Jain', extra: { sandbox_persona: 'wrong_language' } },
  ];

  const RULES = `rules:
  - id: ai-disclosure
    kind: first_agent_turn_matches
    severity: error
    pattern: "I am an AI assistant|मैं एक AI सहायक"
  - {id: no-promises, kind: never_says, severity: error, role: agent, phrases: ["guaranteed returns"]}
  - {id: opt-out, kind: opt_out_honoured, severity: error, pattern: "don't call|do not call", within_turns: 1, outcomes: [do_not_call]}
  - {id: short, kind: max_duration, severity: warn, seconds: 35}
  - {id: outcomes, kind: outcome_in, severity: warn, outcomes: [requirements_gathered, callback_scheduled, do_not_call], where: {status: [completed]}}
  - {id: script, kind: language, severity: error}
  - {id: hours, kind: within_calling_hours, severity: error}
  - {id: dnc, kind: not_suppressed, severity: error, exclude: [dnc.txt]}
  - {id: polite, kind: judge, severity: error, command: "node judge.mjs"}
`;

  // Fails the calls that ended do-not-call, with a reason.
  const JUDGE = `let s = ''; process.stdin.on('data', (d) => (s += d)).on('end', () => {
  const call = JSON.parse(s);
  if (call.outcome === 'do_not_call') { console.log('the contact was upset'); process.exit(1); }
  console.log('fine'); process.exit(0);
});`;

  type Verdicts = Record<string, Record<string, string>>;

  /** phone number → rule → verdict, from --json. */
  function byPhone(json: any, phones: Map<string, string>): Verdicts {
    const out: Verdicts = {};
    for (const r of json.results) {
      const phone = phones.get(r.call_id)!;
      (out[phone] ??= {})[r.rule] = r.verdict;
    }
    return out;
  }

  describe('calls check over a finished campaign', () => {
    let h: Harness;
    let api: Client;
    let dir: string;
    let campaignIds: string[];
    const phones = new Map<string, string>();
    const requests = () => h.sandbox.requests.length;

    beforeAll(async () => {
      h = await harness({ startAt: START });
      api = clientFor(h.sandbox);
      dir = mkdtempSync(join(tmpdir(), 'voicectl-check-'));
      writeFileSync(join(dir, 'rules.yaml'), RULES);
      writeFileSync(join(dir, 'judge.mjs'), JUDGE);
      writeFileSync(join(dir, 'dnc.txt'), '+91 98100 00002\n');
      const english = await givenAgent(api, { name: 'Asha', language: 'en-IN', prompt: 'Disclose that you are an AI at the start. Confirm interest.' });
      const hindi = await givenAgent(api, { name: 'Priya', voice_name: 'Priya', language: 'hi-IN', greeting: 'नमस्ते {name}, मैं सनराइज़ होम्स से प्रिया बोल रही हूँ।', prompt: 'Confirm interest.' });
      campaignIds = [];
      for (const [agent, people] of [[english, PEOPLE], [hindi, HINDI_PEOPLE]] as const) {
        const created = await api('POST', '/campaigns/json', { name: `check ${agent.name}`, agent_id: agent.id, contacts: people });
        expect(created.status).toBe(201);
        await api('POST', `/campaigns/${created.body.id}/launch`);
        await campaignDone(api, created.body.id);
        campaignIds.push(created.body.id);
      }
      for (const id of campaignIds) {
        const res = await api('GET', `/calls?campaign_id=${id}&limit=200`);
        for (const c of res.body.calls) phones.set(c.call_id, c.phone_number);
      }
    }, 60_000);

    afterAll(async () => {
      await h?.close();
    });

    it('gives each call the verdict its persona and number call for, writes JUnit, and exits 1', async () => {
      const junit = join(dir, 'checks.xml');
      const r = await h.run(['calls', 'check', '--rules', join(dir, 'rules.yaml'), '--campaign', ...campaignIds, '--junit', junit, '--json']);
      expect(r.stderr).toContain('error-severity failure');
      expect(r.exitCode).toBe(1);
      const json = JSON.parse(r.stdout);
      expect(json.calls).toBe(8);
      const v = byPhone(json, phones);
      const all = (o: Record<string, string>) => ({ 'ai-disclosure': 'pass', 'no-promises': 'pass', 'opt-out': 'pass', short: 'fail', outcomes: 'pass', script: 'pass', hours: 'pass', dnc: 'pass', polite: 'pass', ...o });
      expect(v['+919810000001']).toEqual(all({}));
      expect(v['+919810000002']).toEqual(all({ dnc: 'fail' }));
      expect(v['+919810000003']).toEqual(all({ polite: 'fail' }));
      expect(v['+919810000004']).toEqual(all({ 'ai-disclosure': 'skip', 'no-promises': 'skip', 'opt-out': 'skip', short: 'pass', outcomes: 'skip', script: 'skip' }));
      expect(v['+919810000005']).toEqual(all({ outcomes: 'fail', script: 'fail' }));
      expect(v['+12125550123']).toEqual(all({ hours: 'fail' }));
      expect(v['+919810000007']).toEqual(all({ 'ai-disclosure': 'fail' }));
      expect(v['+919810000008']).toEqual(all({ 'ai-disclosure': 'fail', outcomes: 'fail', script: 'fail' }));
      // The judge's stdout is the reason; a failure carries the turn it is about.
      expect(json.failures.find((f: any) => f.rule === 'polite').message).toBe('the contact was upset');
      const script = json.failures.find((f: any) => f.rule === 'script' && phones.get(f.call_id) === '+919810000005');
      expect(script.context.find((t: any) => t.offending).text).toMatch(/[\u0900-\u097F]/);

      // Read back by a JUnit parser: one suite per rule, one case per call.
      const parsed: any = await parseJunit(readFileSync(junit, 'utf8'));
      expect(parsed.testsuite).toHaveLength(9);
      const hours = parsed.testsuite.find((s: any) => s.name === 'hours');
      expect(hours.testcase).toHaveLength(8);
      const failed = hours.testcase.filter((c: any) => c.failure);
      expect(failed.map((c: any) => phones.get(c.name))).toEqual(['+12125550123']);
      const short = parsed.testsuite.find((s: any) => s.name === 'short');
      // A warning does not fail the build.
      expect(short.testcase.every((c: any) => !c.failure)).toBe(true);
    });

    it('shows a person the summary and each failure with the turn in context', async () => {
      const r = await h.run(['calls', 'check', '--rules', join(dir, 'rules.yaml'), '--campaign', campaignIds[0]!]);
      expect(r.exitCode).toBe(1);
      expect(r.stdout).toMatch(/RULE\s+KIND\s+SEVERITY\s+PASS\s+FAIL\s+WARN\s+SKIPPED/);
      expect(r.stdout).toMatch(/hours\s+within_calling_hours\s+error\s+5\s+1\s+0\s+0/);
      expect(r.stdout).toMatch(/FAIL script\s+call_\w+\s+\+919810000005/);
      expect(r.stdout).toMatch(/> +\d+ agent +ज़रूर/);
      const md = await h.run(['calls', 'check', '--rules', join(dir, 'rules.yaml'), '--campaign', campaignIds[0]!, '--format', 'md']);
      expect(md.stdout).toContain('| hours | within_calling_hours | error | 5 | 1 | 0 | 0 |');
      expect(md.stdout).toContain('**FAIL** `dnc`');
    });

    it('passes (exit 0) when only warnings fail', async () => {
      writeFileSync(join(dir, 'warn.yaml'), 'rules:\n  - {id: short, kind: max_duration, severity: warn, seconds: 35}\n');
      const r = await h.run(['calls', 'check', '--rules', join(dir, 'warn.yaml'), '--call', [...phones.keys()][0]!]);
      expect(r.stderr).toContain('Passed');
      expect(r.exitCode).toBe(0);
    });

    it('pinned calls give the same verdicts offline', async () => {
      const online = await h.run(['calls', 'check', '--rules', join(dir, 'rules.yaml'), '--campaign', ...campaignIds, '--json']);
      const pins = join(dir, 'pins');
      const pin = await h.run(['calls', 'pin', ...phones.keys(), '--to', pins]);
      expect(pin.exitCode).toBe(0);
      const before = requests();
      const offline = await h.run(['calls', 'check', '--rules', join(dir, 'rules.yaml'), '--from-file', pins, '--json'], { env: { VOICECTL_BASE_URL: 'http://127.0.0.1:9', VOICECTL_API_KEY: undefined } });
      expect(requests()).toBe(before);
      expect(offline.exitCode).toBe(1);
      expect(byPhone(JSON.parse(offline.stdout), phones)).toEqual(byPhone(JSON.parse(online.stdout), phones));
    });

    it('reads JSON lines written by call export --transcripts (the language rule then needs its language: the file does not hold the agent)', async () => {
      const file = join(dir, 'calls.jsonl');
      expect((await h.run(['call', 'export', '--campaign', campaignIds[0]!, '--format', 'jsonl', '--transcripts', '--out', file])).exitCode).toBe(0);
      const online = await h.run(['calls', 'check', '--rules', join(dir, 'rules.yaml'), '--campaign', campaignIds[0]!, '--json']);
      const offline = await h.run(['calls', 'check', '--rules', join(dir, 'rules.yaml'), '--from-file', file, '--json']);
      const want = byPhone(JSON.parse(online.stdout), phones);
      for (const v of Object.values(want)) if (v.script !== 'skip') v.script = 'skip';
      expect(byPhone(JSON.parse(offline.stdout), phones)).toEqual(want);
    });

    it('--redact replaces names, numbers and extra values with stable placeholders', async () => {
      const id = [...phones.entries()].find(([, p]) => p === '+919810000003')![0];
      const a = join(dir, 'redacted-a');
      const b = join(dir, 'redacted-b');
      expect((await h.run(['calls', 'pin', id, '--to', a, '--redact'])).exitCode).toBe(0);
      expect((await h.run(['calls', 'pin', id, '--to', b, '--redact'])).exitCode).toBe(0);
      const text = readFileSync(join(a, `${id}.json`), 'utf8');
      expect(text).toBe(readFileSync(join(b, `${id}.json`), 'utf8'));
      expect(text).not.toContain('Arjun');
      expect(text).not.toContain('9810000003');
      expect(text).not.toContain('opt_out');
      const call = JSON.parse(text);
      expect(call.phone_number).toMatch(/^\+91\d{10}$/);
      expect(call.transcript.length).toBeGreaterThan(2);
    });

    it('--harvest-dnc writes the opted-out numbers, and campaign create --exclude leaves them out', async () => {
      const dnc = join(dir, 'harvested.txt');
      writeFileSync(dnc, '+919899999999\n');
      const rules = join(dir, 'opt.yaml');
      writeFileSync(rules, `rules:\n  - {id: opt-out, kind: opt_out_honoured, severity: error, pattern: "do not call", outcomes: [do_not_call]}\n`);
      const r = await h.run(['calls', 'check', '--rules', rules, '--campaign', campaignIds[0]!, '--harvest-dnc', dnc]);
      expect(r.exitCode).toBe(0);
      expect(readFileSync(dnc, 'utf8')).toBe('+919899999999\n+919810000003\n');
      // Twice: nothing written twice.
      await h.run(['calls', 'check', '--rules', rules, '--campaign', campaignIds[0]!, '--harvest-dnc', dnc]);
      expect(readFileSync(dnc, 'utf8')).toBe('+919899999999\n+919810000003\n');

      const csv = join(dir, 'next.csv');
      writeFileSync(csv, 'phone,name\n+919810000001,Ravi\n+919810000003,Arjun\n');
      const created = await h.run(['campaign', 'create', '--name', 'next', '--agent', 'Asha', '--csv', csv, '--exclude', dnc, '--json']);
      expect(created.exitCode).toBe(0);
      const campaign = JSON.parse(created.stdout);
      const id = campaign.id ?? campaign[0]?.id ?? campaign.campaigns?.[0]?.id;
      const contacts = await api('GET', `/campaigns/${id}/contacts`);
      expect(contacts.body.map((c: any) => c.phone_number)).toEqual(['+919810000001']);
    });
  });
});

describe('rules files', () => {
  /**
   * The rules file refused before any request (its line, exit 2), and a flaky judge
   * damped by repeat/pass.
   */
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
    }, 90_000);

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
});
