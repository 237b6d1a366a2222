/**
 * Input errors caught before anything is sent: agent fields of the wrong type (the
 * spec's types), and JSON nested too deep for `--contacts` (its `extra`), `agent create
 * --file` and `trigger --data`. Exit 2 with a message naming the problem, never a
 * request, never "Maximum call stack size exceeded".
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { sharedHarness } from '../helpers/cli.js';
import { agentFieldProblems } from '../../src/agents/validate.js';
import { JsonTooDeepError, parseJsonWithin } from '../../src/util/json-depth.js';

const h = sharedHarness();
const AGENT = { name: 'Front desk', voice_name: 'Priya', greeting: 'Namaste!', call_purpose: 'Book a visit', prompt: 'Be brief.', tools: ['take_message'] };

beforeEach(() => {
  h.sandbox.requests.length = 0;
});

function file(name: string, content: unknown): string {
  const path = join(h.dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const posts = (path: string) => h.sandbox.requests.filter((r) => r.method === 'POST' && r.path === path);

/** `{"a":{"a":…}}` nested `depth` levels. */
function nested(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

describe('agent fields of the wrong type', () => {
  it('agent create --file with a number for name: exit 2 naming the field, nothing sent', async () => {
    const r = await h.run(['agent', 'create', '--file', file('a1.json', { ...AGENT, name: 42 })]);
    expect(r.stderr).toContain('name must be a string (got a number)');
    expect(r.exitCode).toBe(2);
    expect(posts('/agents')).toHaveLength(0);
  });

  it('tools as one string, a kb id that is a number: both named', async () => {
    const r = await h.run(['agent', 'create', '--file', file('a2.json', { ...AGENT, tools: 'take_message', kb_item_ids: ['x', 7] })]);
    expect(r.stderr).toContain('tools must be an array of strings (got a string)');
    expect(r.stderr).toContain('kb_item_ids[1] must be a string (got a number)');
    expect(r.exitCode).toBe(2);
    expect(posts('/agents')).toHaveLength(0);
  });

  it('greeting as an object, status as a boolean', async () => {
    const r = await h.run(['agent', 'create', '--file', file('a3.json', { ...AGENT, greeting: { text: 'hi' }, status: true })]);
    expect(r.stderr).toContain('greeting must be a string (got an object)');
    expect(r.stderr).toContain('status must be a string (got true)');
    expect(r.exitCode).toBe(2);
  });

  it('fields the spec does not show are sent as they are (the service decides)', async () => {
    const r = await h.run(['agent', 'create', '--file', file('a4.json', { ...AGENT, max_call_minutes: 5, metadata: { team: 'north' } }), '--json']);
    // This sandbox refuses fields it does not know (400, exit 1); another service may take them.
    expect(r.exitCode).not.toBe(2);
    expect(posts('/agents')).toHaveLength(1);
    const sent = posts('/agents')[0]!.body as Record<string, unknown>;
    expect(sent.max_call_minutes).toBe(5);
    expect(sent.metadata).toEqual({ team: 'north' });
  });

  it('the same check for every field, in one place', () => {
    expect(agentFieldProblems({ ...AGENT })).toEqual([]);
    expect(agentFieldProblems({ language: 5, direction: [], prompt: null, voice_name: undefined })).toEqual([
      'language must be a string (got a number)',
      'direction must be a string (got an array)',
    ]);
  });
});

describe('JSON nested too deep', () => {
  it('--contacts whose extra nests 100,000 levels: exit 2, a readable message, nothing sent', async () => {
    const deep = `[{"phone_number":"+919876543210","name":"Asha","extra":${nested(100_000)}}]`;
    const r = await h.run(['campaign', 'create', '--name', 'Deep', '--agent', 'Front desk', '--contacts', file('deep-contacts.json', deep)]);
    expect(r.stderr).toContain('deep-contacts.json cannot be used: it nests arrays and objects more than 64 levels deep (line 1, column');
    expect(r.stderr).not.toMatch(/call stack|unexpected error/i);
    expect(r.exitCode).toBe(2);
    expect(posts('/campaigns/json')).toHaveLength(0);
  });

  it('agent create --file nested too deep: exit 2', async () => {
    const r = await h.run(['agent', 'create', '--file', file('deep-agent.json', `{"name":"x","tools":${'['.repeat(50_000)}${']'.repeat(50_000)}}`)]);
    expect(r.stderr).toContain('cannot be used: it nests arrays and objects more than 64 levels deep');
    expect(r.exitCode).toBe(2);
    expect(posts('/agents')).toHaveLength(0);
  });

  it('trigger --data nested too deep: exit 2, nothing posted', async () => {
    const r = await h.run(['trigger', 'call.ended', '--to', `${h.sandbox.url}/hook`, '--secret', 'whsec_test', '--data', file('deep-data.json', nested(100_000))]);
    expect(r.stderr).toContain('--data');
    expect(r.stderr).toContain('more than 64 levels deep');
    expect(r.exitCode).toBe(2);
    expect(h.sandbox.requests.filter((q) => q.path === '/hook')).toHaveLength(0);
  });

  it('64 levels are fine; brackets inside strings do not count', () => {
    expect(parseJsonWithin(nested(64))).toBeTruthy();
    expect(() => parseJsonWithin(nested(65))).toThrow(JsonTooDeepError);
    expect(parseJsonWithin(JSON.stringify({ s: '[[[[{{{{'.repeat(100), q: 'a\\"[[[' }))).toBeTruthy();
    expect(() => parseJsonWithin('{"a":\n  [[1]]}', 2)).toThrow('line 2, column 4');
  });
});
