/**
 * --jq and --template on every command that prints JSON: the built binary against the
 * sandbox, compared with the real jq when the machine has one.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testContext } from '../../src/context-test.js';
import { applyTemplate, formatTime } from '../../src/io/filter.js';
import { harness, type Harness } from '../helpers/cli.js';
import { clientFor, givenAgent, givenCampaign } from '../helpers/given.js';

const jqBinary = spawnSync('jq', ['--version'], { encoding: 'utf8' }).status === 0;
if (!jqBinary) console.log('jq is not installed here: --jq is checked against the ids read from --json only.');

/** What `jq -r EXPR` prints for this JSON text. */
function realJq(expression: string, json: string): string {
  const r = spawnSync('jq', ['-r', expression], { input: json, encoding: 'utf8' });
  expect(r.status).toBe(0);
  return r.stdout;
}

let h: Harness;
beforeAll(async () => {
  h = await harness();
  const api = clientFor(h.sandbox);
  for (let i = 0; i < 3; i++) await givenAgent(api, { name: `Agent ${i}` });
});
afterAll(() => h.close());

describe('--jq', () => {
  const commands = [
    ['agent', 'list'],
    ['voice', 'list'],
    ['api', 'GET', '/agents', '--paginate'],
  ];
  for (const command of commands) {
    it(`${command.join(' ')} --jq '.[].id' prints what jq -r prints`, async () => {
      const json = await h.run([...command, '--json']);
      expect(json.exitCode).toBe(0);
      const filtered = await h.run([...command, '--jq', '.[].id']);
      expect(filtered.exitCode).toBe(0);
      const ids = (JSON.parse(json.stdout) as Array<{ id: string }>).map((x) => x.id);
      expect(ids.length).toBeGreaterThan(0);
      // execa drops the last newline of what it read.
      expect(`${filtered.stdout}\n`).toBe(`${ids.join('\n')}\n`);
      if (jqBinary) expect(`${filtered.stdout}\n`).toBe(realJq('.[].id', json.stdout));
    });
  }

  it('a single object and a structured result print as jq prints them', async () => {
    const agents = JSON.parse((await h.run(['agent', 'list', '--json'])).stdout) as Array<{ id: string }>;
    const get = await h.run(['agent', 'get', agents[0]!.id, '--json']);
    const expr = '{name, tools}';
    const filtered = await h.run(['agent', 'get', agents[0]!.id, '--jq', expr]);
    expect(filtered.exitCode).toBe(0);
    const parsed = JSON.parse(get.stdout);
    expect(JSON.parse(filtered.stdout)).toEqual({ name: parsed.name, tools: parsed.tools });
    if (jqBinary) expect(`${filtered.stdout}\n`).toBe(realJq(expr, get.stdout));
  });

  it('campaign report --format json is filtered too', async () => {
    const api = clientFor(h.sandbox);
    const agent = await givenAgent(api, { name: 'Reporter' });
    const campaign = await givenCampaign(api, agent.id, 2);
    const json = await h.run(['campaign', 'report', campaign.id, '--format', 'json']);
    expect(json.exitCode).toBe(0);
    const filtered = await h.run(['campaign', 'report', campaign.id, '--format', 'json', '--jq', 'keys']);
    expect(filtered.exitCode).toBe(0);
    expect(JSON.parse(filtered.stdout)).toEqual(Object.keys(JSON.parse(json.stdout)).sort());
  });
});

describe('--template', () => {
  it('lays out a list with table and tablerow', async () => {
    const r = await h.run(['agent', 'list', '--template', '{{#table}}{{#each this}}{{tablerow name voice_name}}{{/each}}{{/table}}']);
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    const agents = JSON.parse((await h.run(['agent', 'list', '--json'])).stdout) as unknown[];
    expect(lines).toHaveLength(agents.length);
    // Aligned: the second column starts at the same place on every line.
    const starts = lines.map((l) => l.indexOf('Ananya'));
    expect(new Set(starts).size).toBe(1);
    expect(lines[0]).toMatch(/^Agent \d\s{2,}Ananya$/);
  });

  it('helpers: json, join, truncate, time', async () => {
    const ctx = testContext({ now: () => new Date('2026-01-02T13:00:00Z') });
    const value = { name: 'A very long name', tools: ['a', 'b'], at: '2026-01-02T10:00:00Z', o: { x: 1 } };
    expect(await applyTemplate(ctx, '{{truncate name 6}}|{{join tools "+"}}|{{json o}}|{{time at}}|{{time at "relative"}}|{{time at "date"}}', value))
      .toBe('A ver…|a+b|{"x":1}|2026-01-02 10:00 UTC|3 hours ago|2026-01-02');
    expect(formatTime('2026-01-02T14:00:00Z', 'relative', new Date('2026-01-02T13:00:00Z'))).toBe('in 1 hour');
  });
});

describe('--jq and --template that cannot run', () => {
  it.each([
    // Streams of JSON lines (call tail, watch, listen) refuse both before anything runs, naming the pipe to use.
    [['call', 'tail', '--jq', '.'], 2, '| jq'],
    [['watch', 'c1', '--template', '{{id}}'], 2, '| jq'],
    [['listen', '--skip-verify', '--port', '0', '--jq', '.'], 2, '| jq'],
    // A bad expression or template is a usage error; an expression that fails on the data exits 1.
    [['agent', 'list', '--jq', '.['], 2, 'not a jq expression'],
    [['agent', 'list', '--template', '{{#each}}'], 2, '--template'],
    [['agent', 'list', '--jq', '.[0].name | .[0]'], 1, 'Cannot index string'],
  ])('%j exits %i, saying %j, printing nothing', async (args, code, says) => {
    const r = await h.run(args);
    expect(r.exitCode).toBe(code);
    expect(r.stderr).toContain(says);
    expect(r.stdout).toBe('');
  });
});
