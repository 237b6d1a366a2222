/** What a user can get wrong with pull, plan and apply, and what they are told. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/cli.js';
import { tempDir, type TempDir } from '../helpers/temp.js';
import { agents, writes } from './gitops-helpers.js';

let h: Harness;
let tmp: TempDir;
beforeAll(async () => {
  h = await harness({ plan: { agent_limit: 3 } });
});
afterAll(async () => h.close());
beforeEach(() => {
  tmp?.remove();
  tmp = tempDir();
});

const agent = (name: string, status = 'active') => `    name: ${name}\n    voice_name: Priya\n    status: ${status}\n    greeting: Hi\n    call_purpose: Test\n    prompt: Short.\n    tools: []\n`;

describe('apply that fails part way', () => {
  it('stops at the failing step, says what was done and what was not, and finishes when run again', async () => {
    writeFileSync(join(tmp.dir, 'voicectl.yaml'), `version: 1\nagents:\n  a:\n${agent('First')}  b:\n${agent('Second', 'Not-A-Status')}  c:\n${agent('Third')}`);
    const r = await h.run(['apply', tmp.dir, '--yes']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('✓ create agent a ("First")');
    expect(r.stderr).toContain('✗ create agent b ("Second")');
    expect(r.stderr).toContain('Not done: this one and 1 more:');
    expect(r.stderr).toContain('create agent c ("Third")');
    expect(r.stderr).toContain('status must be a status word');
    expect(r.stderr).toContain('Run `voicectl apply');
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
    const lock = JSON.parse(readFileSync(join(tmp.dir, 'voicectl.lock.json'), 'utf8'));
    expect(lock.agents.a.id).toBeTruthy();
    // The service refused the create (400): nothing was made, so nothing is left pending.
    expect(lock.agents.b).toBeUndefined();

    writeFileSync(join(tmp.dir, 'voicectl.yaml'), `version: 1\nagents:\n  a:\n${agent('First')}  b:\n${agent('Second')}  c:\n${agent('Third')}`);
    const before = h.sandbox.requests.length;
    const again = await h.run(['apply', tmp.dir, '--yes']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(writes(h.sandbox.requests.slice(before)).map((q) => q.body && (q.body as { name: string }).name)).toEqual(['Second', 'Third']);
  });

  it('a plan limit stops with exit 5', async () => {
    writeFileSync(join(tmp.dir, 'voicectl.yaml'), `version: 1\nagents:\n  d:\n${agent('Fourth')}`);
    const r = await h.run(['apply', tmp.dir, '--yes']);
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toContain('agent_limit_exceeded');
  });
});

describe('files that cannot be read', () => {
  it('lists every mistake with where it is, before any request', async () => {
    writeFileSync(join(tmp.dir, 'voicectl.yaml'), [
      'version: 1',
      'agents:',
      '  a:',
      '    name: One',
      '    greting: typo',
      '    greeting: ~',
      '    prompt: !file missing.md',
      '    documents: [nowhere.md]',
      '  b:',
      '    name: One',
      'webhooks:',
      '  crm:',
      '    url: https://example.com/h',
      '    secret: whsec_x',
      '    events: [call.started]',
      '',
    ].join('\n'));
    const before = h.sandbox.requests.length;
    const r = await h.run(['plan', tmp.dir]);
    expect(r.exitCode).toBe(2);
    for (const text of [
      'agents.a.greting: unknown key',
      'agents.a.greeting: is empty; the service rejects null',
      'agents.a.prompt: cannot read missing.md (no such file)',
      'agents.a.documents: nowhere.md is not declared under documents:',
      'agents.b.name: "One" is also the name of agents.a; agent names must be unique (line 10, column 5)',
      'webhooks.crm.secret: secrets never go in these files',
      'webhooks.crm.events: unknown event type call.started',
    ]) expect(r.stderr).toContain(text);
    // Every mistake says where it is.
    expect(r.stderr).toMatch(/agents\.a\.greting: unknown key .*\(line 5, column 5\)/);
    expect(r.stderr).toMatch(/webhooks\.crm\.secret: .*\(line 14, column 5\)/);
    expect(h.sandbox.requests.length).toBe(before);
  });

  it('says what to do when there is no voicectl.yaml, and when YAML is broken', async () => {
    const none = await h.run(['plan', tmp.dir]);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('voicectl pull');
    writeFileSync(join(tmp.dir, 'voicectl.yaml'), 'agents:\n  a: [unclosed\n');
    const broken = await h.run(['plan', tmp.dir]);
    expect(broken.exitCode).toBe(2);
    expect(broken.stderr).toMatch(/voicectl\.yaml is not valid/);
  });

  it('accepts voicectl.json with prompt_file', async () => {
    writeFileSync(join(tmp.dir, 'p.md'), 'From a file.\n');
    writeFileSync(join(tmp.dir, 'voicectl.json'), JSON.stringify({ version: 1, agents: { j: { name: 'Json agent', voice_name: 'Priya', greeting: 'Hi', call_purpose: 'x', prompt_file: 'p.md', tools: [] } } }));
    const plan = await h.run(['plan', tmp.dir, '--json']);
    expect(plan.exitCode, plan.stderr).toBe(0);
    expect(JSON.parse(plan.stdout).steps[0].fields.prompt).toBe('From a file.');
  });
});

describe('pull into a folder that has files', () => {
  it('asks before replacing voicectl.yaml (--yes under CI), and keeps handles stable', async () => {
    const first = await h.run(['pull', tmp.dir]);
    expect(first.exitCode, first.stderr).toBe(0);
    const text = readFileSync(join(tmp.dir, 'voicectl.yaml'), 'utf8');
    const again = await h.run(['pull', tmp.dir]);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain('--yes');
    const yes = await h.run(['pull', tmp.dir, '--yes']);
    expect(yes.exitCode, yes.stderr).toBe(0);
    expect(readFileSync(join(tmp.dir, 'voicectl.yaml'), 'utf8')).toBe(text);
  });

  it('refuses a lock made against another service, naming --lock', async () => {
    writeFileSync(join(tmp.dir, 'voicectl.yaml'), 'version: 1\nagents: {}\n');
    writeFileSync(join(tmp.dir, 'voicectl.lock.json'), JSON.stringify({ version: 1, base_url: 'https://api.example.com', agents: {}, documents: {}, webhooks: {} }));
    const r = await h.run(['plan', tmp.dir]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('belongs to https://api.example.com');
    expect(r.stderr).toContain('--lock');
  });

  it('refuses to pull an account where two agents share a name, naming both', async () => {
    const list = await agents(h.api);
    const dupe = await h.api('PATCH', `/agents/${list[0]!.id}`, { name: list[1]!.name });
    expect(dupe.status).toBe(200);
    const r = await h.run(['pull', join(tmp.dir, 'x')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(list[0]!.id);
    expect(r.stderr).toContain(list[1]!.id);
  });
});

describe('schema', () => {
  it('prints a JSON Schema that describes the keys pull writes', async () => {
    const r = await h.run(['schema']);
    expect(r.exitCode).toBe(0);
    const schema = JSON.parse(r.stdout);
    expect(schema.$schema).toContain('json-schema.org');
    const agentProps = Object.keys(schema.properties.agents.additionalProperties.properties);
    expect(agentProps).toEqual(expect.arrayContaining(['name', 'voice_name', 'prompt', 'prompt_file', 'tools', 'documents', 'other_fields', 'status', 'direction', 'language']));
    expect(schema.properties.webhooks.additionalProperties.properties.secret).toBeUndefined();
  });
});
