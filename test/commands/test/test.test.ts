/** `voicectl test`: a suite of scenarios placed as test campaigns in the sandbox, each call checked. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseJunit } from 'junit2json';
import { harness, sharedHarness } from '../../helpers/cli.js';
import { clientFor, givenAgent } from '../../helpers/given.js';

const SUITE = `name: onboarding
agent: Asha
repeat: 2
# The team's own phones: any hour will do.
calling_hours: "00:00-24:00"
rules:
  - {id: script, kind: language, severity: error}
  - {id: no-promises, kind: never_says, phrases: ["guaranteed returns"]}
scenarios:
  - name: interested
    phone_number: "+919810000101"
    extra: {sandbox_persona: interested}
    expect:
      - {id: disclosure, kind: first_agent_turn_matches, pattern: "I am an AI assistant"}
      - {id: outcome, kind: outcome_in, outcomes: [requirements_gathered]}
  - name: busy
    phone_number: "+919810000102"
    extra: {sandbox_persona: busy}
    expect:
      - {id: outcome, kind: outcome_in, outcomes: [callback_scheduled]}
  - name: opt-out
    phone_number: "+919810000103"
    extra: {sandbox_persona: opt_out}
    expect:
      - {id: honoured, kind: opt_out_honoured, pattern: "do not call", within_turns: 1, outcomes: [do_not_call]}
`;

describe('voicectl test', () => {
  const h = sharedHarness();
  let dir: string;

  beforeAll(async () => {
    dir = h.dir;
    await givenAgent(clientFor(h.sandbox), { prompt: 'Disclose that you are an AI. Confirm interest.' });
    writeFileSync(join(dir, 'suite.yaml'), SUITE);
  }, 30_000);


  it('asks before placing calls: without --yes off a terminal nothing is created (exit 2)', async () => {
    const before = h.sandbox.requests.filter((r) => r.method === 'POST').length;
    const r = await h.run(['test', join(dir, 'suite.yaml')]);
    expect(r.stderr).toContain('6 test calls');
    expect(r.stderr).toContain('--yes');
    expect(r.exitCode).toBe(2);
    expect(h.sandbox.requests.filter((r) => r.method === 'POST').length).toBe(before);
  });

  it('runs a three-scenario suite twice, one test: campaign per run, passes and writes JUnit', async () => {
    const junit = join(dir, 'suite.xml');
    const r = await h.run(['test', join(dir, 'suite.yaml'), '--yes', '--junit', junit], { timeout: 120_000 });
    expect(r.stderr).toContain('Passed: 6 calls checked');
    expect(r.exitCode).toBe(0);
    const campaigns = (await clientFor(h.sandbox)('GET', '/campaigns?limit=200')).body.campaigns;
    expect(campaigns.map((c: any) => c.name).filter((n: string) => n.startsWith('test:')).sort()).toEqual(['test: onboarding run 1/2', 'test: onboarding run 2/2']);
    const parsed: any = await parseJunit(readFileSync(junit, 'utf8'));
    const names = parsed.testsuite.map((s: any) => s.name);
    expect(names).toEqual(expect.arrayContaining(['interested/disclosure', 'interested/outcome', 'busy/outcome', 'opt-out/honoured', 'busy/script']));
    for (const s of parsed.testsuite) {
      expect(s.testcase).toHaveLength(2);
      expect(s.testcase.every((c: any) => !c.failure)).toBe(true);
    }
  }, 150_000);

  it('refuses a bad suite with its line before any request (exit 2)', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, SUITE.replace('kind: outcome_in, outcomes: [callback_scheduled]', 'kind: outcome_is, outcomes: [callback_scheduled]'));
    const before = h.sandbox.requests.length;
    const r = await h.run(['test', bad, '--yes']);
    expect(r.stderr).toMatch(/bad\.yaml:20: rule "outcome": unknown kind "outcome_is"/);
    expect(r.exitCode).toBe(2);
    expect(h.sandbox.requests.length).toBe(before);
  });
});

describe('voicectl test naming the agent by its handle in voicectl.yaml', () => {
  it('finds the agent the handle manages, and lists the campaigns it created in --json', async () => {
    const h = await harness();
    try {
      const api = clientFor(h.sandbox);
      await givenAgent(api, { name: 'Front desk' });
      const dir = mkdtempSync(join(tmpdir(), 'voicectl-suite-handle-'));
      expect((await h.run(['pull', dir])).exitCode).toBe(0);
      const yaml = readFileSync(join(dir, 'voicectl.yaml'), 'utf8');
      const handle = /^agents:\n {2}([\w-]+):/m.exec(yaml)![1]!;
      writeFileSync(join(dir, 'suite.yaml'), `agent: ${handle}\ncalling_hours: "00:00-24:00"\nscenarios:\n  - {name: one, phone_number: "+919810000301", extra: {sandbox_persona: busy}, expect: [{id: o, kind: outcome_in, outcomes: [callback_scheduled]}]}\n`);
      const r = await h.run(['test', join(dir, 'suite.yaml'), '--yes', '--json']);
      expect(r.exitCode).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out.campaigns).toHaveLength(1);
      const campaign = (await api('GET', `/campaigns/${out.campaigns[0]}`)).body;
      expect(campaign.name).toBe('test: suite run 1/1');
      const agents = (await api('GET', '/agents')).body.agents;
      expect(campaign.agent_id).toBe(agents.find((a: any) => a.name === 'Front desk').id);
    } finally {
      await h.close();
    }
  }, 60_000);
});
