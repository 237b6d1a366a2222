/** The agent verbs as a person uses them, one after another on one agent: create, list, get, update, delete. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedHarness } from '../../helpers/cli.js';

const h = sharedHarness();

const fields = ['--voice', 'Priya', '--greeting', 'Namaste! Main Priya bol rahi hoon.', '--call-purpose', 'Confirm delivery slots', '--prompt', 'Ask which delivery slot suits the customer.'];

describe('agent lifecycle', () => {
  let id = '';

  it('creates an agent from flags, language defaulting to the voice', async () => {
    const r = await h.run(['agent', 'create', '--name', 'Delivery desk', ...fields, '--tools', 'schedule_callback,take_message', '--json']);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const agent = JSON.parse(r.stdout);
    id = agent.id;
    expect(agent.language).toBe('hi-IN');
    const post = h.sandbox.requests.filter((q) => q.method === 'POST' && q.path === '/agents');
    expect(post).toHaveLength(1);
    expect(post[0]!.body).toMatchObject({ name: 'Delivery desk', voice_name: 'Priya', tools: ['schedule_callback', 'take_message'] });
  });

  it('creates from --file with flags overriding it and a --prompt-file', async () => {
    const file = join(h.configDir, 'agent.json');
    const promptFile = join(h.configDir, 'prompt.txt');
    writeFileSync(file, JSON.stringify({ name: 'From file', voice_name: 'Meera', greeting: 'Vanakkam!', call_purpose: 'Survey', prompt: 'x', tools: [] }));
    writeFileSync(promptFile, 'Ask three short survey questions.\n');
    const r = await h.run(['agent', 'create', '--file', file, '--prompt-file', promptFile, '--name', 'Survey (Tamil)', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'Survey (Tamil)', voice_name: 'Meera', prompt: 'Ask three short survey questions.', language: 'ta-IN' });
  });

  it('lists agents and gets one by id and by exact name', async () => {
    const list = await h.run(['agent', 'list', '--all', '--json']);
    expect(JSON.parse(list.stdout).map((a: { id: string }) => a.id)).toContain(id);
    const byId = await h.run(['agent', 'get', id, '--json']);
    expect(JSON.parse(byId.stdout).name).toBe('Delivery desk');
    const byName = await h.run(['agent', 'get', 'Delivery desk', '--json']);
    expect(JSON.parse(byName.stdout).id).toBe(id);
    const table = await h.run(['agent', 'list']);
    expect(table.stdout).toMatch(/ID\s+NAME\s+STATUS/);
  });

  it('updates only the fields given', async () => {
    const before = h.sandbox.requests.length;
    const r = await h.run(['agent', 'update', 'Delivery desk', '--greeting', 'Hello again!', '--json']);
    expect(r.exitCode).toBe(0);
    const patches = h.sandbox.requests.slice(before).filter((q) => q.method === 'PATCH');
    expect(patches).toHaveLength(1);
    expect(patches[0]!.body).toEqual({ greeting: 'Hello again!' });
    const got = await h.run(['agent', 'get', id, '--json']);
    expect(JSON.parse(got.stdout)).toMatchObject({ greeting: 'Hello again!', call_purpose: 'Confirm delivery slots' });
  });

  it('refuses an update with nothing to change', async () => {
    const r = await h.run(['agent', 'update', id]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Nothing to update');
  });

  it('names both ids when a name matches two agents', async () => {
    await h.run(['agent', 'create', '--name', 'Twin', ...fields]);
    await h.run(['agent', 'create', '--name', 'Twin', ...fields]);
    const r = await h.run(['agent', 'get', 'Twin']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.match(/[0-9a-f]{8}-[0-9a-f-]{27}/g)).toHaveLength(2);
  });

  it('needs --yes to delete without a terminal, then deletes', async () => {
    const refused = await h.run(['agent', 'delete', id]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('--yes');
    const r = await h.run(['agent', 'delete', id, '--yes']);
    expect(r.exitCode).toBe(0);
    const gone = await h.run(['agent', 'get', id]);
    expect(gone.exitCode).toBe(4);
    expect(gone.stderr).toContain('not found (or it belongs to another organization)');
  });

  it('names the missing flag under --no-input', async () => {
    const r = await h.run(['agent', 'create', '--name', 'Half', '--voice', 'Priya', '--no-input']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--greeting');
    expect(r.stderr).toContain('--call-purpose');
  });
});
