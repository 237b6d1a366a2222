/**
 * Small things a new user trips over: one word for how a call ended in every view, a
 * string outcome from the sandbox, confirmation errors that read well, a missing profile
 * named as such, a sandbox key that --seed keeps, Ctrl-C in watch, copying an agent
 * through a pipe, and the package's repository.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outcomeWord } from '../../src/calls/outcome.js';
import { refusedAction } from '../../src/io/prompter.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { BIN, harness, type Harness } from '../helpers/cli.js';

let h: Harness;
const agentFlags = ['--voice', 'Priya', '--greeting', 'Namaste', '--call-purpose', 'Renewals', '--prompt', 'Remind about the renewal.'];

beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

async function json(args: string[]) {
  const r = await h.run([...args, '--json']);
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

async function finishedCampaign(contacts: number): Promise<string> {
  const agent = await json(['agent', 'create', '--name', `Outcomes ${contacts}`, ...agentFlags]);
  const body = JSON.stringify(Array.from({ length: contacts }, (_, i) => ({ phone_number: `+9198${String(10_000_000 + i)}`, name: `Contact ${i}` })));
  const file = join(h.configDir, `contacts-${contacts}-${Date.now()}.json`);
  writeFileSync(file, body);
  const r = await h.run(['campaign', 'create', '--name', `Outcomes ${contacts}`, '--agent', agent.id, '--contacts', file, '--launch', '--ignore-calling-hours', '--yes', '--json']);
  expect(r.exitCode, r.stderr).toBe(0);
  const id = JSON.parse(r.stdout).id as string;
  for (let i = 0; i < 200; i++) {
    if ((await json(['campaign', 'get', id])).status === 'completed') return id;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`campaign ${id} did not complete`);
}

describe('how a call ended', () => {
  it('the sandbox answers a string outcome for every ended call, unanswered and failed ones too', async () => {
    const id = await finishedCampaign(60);
    const calls = (await json(['call', 'list', '--campaign', id, '--all'])) as Record<string, unknown>[];
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.some((c) => c.status !== 'completed')).toBe(true);
    for (const c of calls) expect(typeof c.outcome, JSON.stringify(c)).toBe('string');
  });

  it('reads the same in call list, the campaign report and watch', async () => {
    const id = await finishedCampaign(60);
    const calls = (await json(['call', 'list', '--campaign', id, '--all'])) as Record<string, unknown>[];
    const expected: Record<string, number> = {};
    for (const c of calls) expected[outcomeWord(c)] = (expected[outcomeWord(c)] ?? 0) + 1;
    const report = await json(['campaign', 'report', id]);
    expect(report.campaigns[0].outcomes).toEqual(expected);
    const watch = await h.run(['watch', id, '--json']);
    const summary = watch.stdout.trim().split('\n').map((l) => JSON.parse(l)).find((e) => e.type === 'completed').summary;
    expect(summary.outcomes).toEqual(expected);
    const table = await h.run(['call', 'list', '--campaign', id, '--all']);
    const failed = calls.filter((c) => c.status === 'failed');
    for (const c of failed) expect(table.stdout.split('\n').find((l) => l.includes(String(c.call_id)))).toMatch(/\bfailed\b/);
  });

  it('is the outcome, else the end reason, else the status, for a service that sends null', () => {
    expect(outcomeWord({ outcome: 'callback_scheduled', status: 'completed' })).toBe('callback_scheduled');
    expect(outcomeWord({ outcome: null, status: 'failed', end_reason: 'busy' })).toBe('busy');
    expect(outcomeWord({ outcome: null, status: 'failed' })).toBe('failed');
    expect(outcomeWord({ outcome: '', status: 'no_answer' })).toBe('no_answer');
    expect(outcomeWord({ end_reason: 'busy' })).toBe('busy');
    expect(outcomeWord({})).toBe('unknown');
  });
});

describe('confirmation errors', () => {
  it('name the action in a sentence that reads well', async () => {
    const agent = await json(['agent', 'create', '--name', 'To delete', ...agentFlags]);
    const r = await h.run(['agent', 'delete', agent.id, '--no-input']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`error: Delete agent "To delete" (${agent.id}) needs confirmation, and no one is at a terminal to give it.`);
    expect(r.stderr).not.toMatch(/[.?]:/);
    expect(refusedAction('Apply these changes to the account?')).toBe('Apply these changes to the account');
    expect(refusedAction('Delete "Who? Me" (k1)? It goes.')).toBe('Delete "Who? Me" (k1)');
    expect(refusedAction('Replace it.')).toBe('Replace it');
  });
});

describe('a profile that does not exist', () => {
  it('is named, with the saved ones and how to create it (exit 2)', async () => {
    const env = { VOICECTL_BASE_URL: undefined, VOICECTL_API_KEY: undefined };
    const saved = await h.run(['config', 'set', 'base_url', h.sandbox.url, '--profile', 'staging'], { env });
    expect(saved.exitCode, saved.stderr).toBe(0);
    const r = await h.run(['agent', 'list', '--profile', 'stagign'], { env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('There is no profile "stagign"');
    expect(r.stderr).toContain('Saved profiles: staging.');
    expect(r.stderr).toContain('voicectl login --profile stagign');
    expect(r.stderr).not.toContain('No service address is set');
    const unnamed = await h.run(['agent', 'list'], { env });
    expect(unnamed.stderr).toContain('No service address is set');
  });
});

describe('the sandbox key', () => {
  it('is the same on every start with --seed, and random without', async () => {
    const keys: string[] = [];
    for (const seed of [5, 5, undefined, undefined]) {
      const sb = await startSandbox({ port: 0, seed });
      keys.push(sb.apiKey);
      await sb.close();
    }
    expect(keys[0]).toBe(keys[1]);
    expect(keys[2]).not.toBe(keys[3]);
    expect(keys[0]).not.toBe(keys[2]);
  });
});

describe('Ctrl-C in watch', () => {
  it('says the campaign keeps running and how to follow it again, exit 130', async () => {
    const agent = await json(['agent', 'create', '--name', 'Watched', ...agentFlags]);
    const file = join(h.configDir, 'watched.json');
    writeFileSync(file, '[{"phone_number":"+919812345678"}]');
    const draft = await h.run(['campaign', 'create', '--name', 'Watched', '--agent', agent.id, '--contacts', file, '--json']);
    const id = JSON.parse(draft.stdout).id as string;
    const child = execa(process.execPath, [BIN, 'watch', id, '--interval', '0.1'], { reject: false, extendEnv: false, env: h.env });
    while (!h.sandbox.requests.some((q) => q.path === `/campaigns/${id}`)) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode).toBe(130);
    expect(r.stderr).toContain(`Campaign ${id} keeps running on the service`);
    expect(r.stderr).toContain(`voicectl watch ${id}`);
  });
});

describe('copying an agent', () => {
  it('agent get --json | agent create --file - works, leaving out what the service sets', async () => {
    const original = await json(['agent', 'create', '--name', 'Original', ...agentFlags, '--tools', 'take_message']);
    const got = await h.run(['agent', 'get', original.id, '--json']);
    const r = await h.run(['agent', 'create', '--file', '-', '--name', 'Copy', '--json'], { input: got.stdout });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Left out of the input: status, .*created_at/);
    const copy = JSON.parse(r.stdout);
    expect(copy.id).not.toBe(original.id);
    expect({ ...copy, id: 0, name: 0, created_at: 0, updated_at: 0 }).toEqual({ ...original, id: 0, name: 0, created_at: 0, updated_at: 0 });
    const unknown = await h.run(['agent', 'create', '--file', '-'], { input: JSON.stringify({ ...JSON.parse(got.stdout), name: 'X', favourite_colour: 'blue' }) });
    expect(unknown.exitCode).not.toBe(0);
    expect(unknown.stderr).toContain('favourite_colour');
  });
});

describe('the package', () => {
  it('names its repository, home page and issue tracker', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(pkg.repository.url).toMatch(/^git\+https:\/\/.+\.git$/);
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.bugs.url).toMatch(/^https:\/\//);
  });
});
