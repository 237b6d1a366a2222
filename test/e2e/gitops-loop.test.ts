/**
 * pull → edit → plan → apply → plan, against the sandbox and against the same service
 * making the other choices the spec leaves open (no single-agent read, no endpoint list,
 * 204 on PATCH and DELETE, another list envelope, wrapped creates, an agent field
 * voicectl does not know).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxVariant } from '../../src/sandbox/index.js';
import { type Harness, harness, sharedHarness } from '../helpers/cli.js';
import { tempDir, type TempDir } from '../helpers/temp.js';
import { agents, editYaml, hasNull, OTHER_CHOICES, writes } from './gitops-helpers.js';

const LONG_PROMPT = 'You confirm delivery slots.\nAsk which slot suits the customer.\nNever promise a refund.';

describe.each([
  ['the sandbox', undefined],
  ['a service making the other choices', OTHER_CHOICES],
  ['a service that lists agents in brief', { agentListOmits: ['greeting', 'call_purpose', 'prompt', 'kb_item_ids'] } as SandboxVariant],
] as const)('account as code against %s', (_label, variant) => {
  let h: Harness;
  let tmp: TempDir;
  let dir: string;
  let deskId = '';
  const call = (method: string, path: string, body?: unknown) => h.api(method, path, body);

  beforeAll(async () => {
    h = await harness({ allowLocalWebhooks: true, variant });
    tmp = tempDir();
    dir = join(tmp.dir, 'account');
    // An account made by hand: a document in a folder, two agents, one using it.
    writeFileSync(join(tmp.dir, 'refunds.md'), '# Refunds\nWithin 30 days.\n');
    const up = await h.run(['kb', 'upload', join(tmp.dir, 'refunds.md'), '--folder', 'policies', '--json']);
    expect(up.exitCode, up.stderr).toBe(0);
    const items = await call('GET', '/kb/items?folder=policies');
    const docId = ((items.body.items ?? items.body.data) as Array<{ id: string; type: string }>).find((i) => i.type === 'file')!.id;
    const desk = await call('POST', '/agents', { name: 'Delivery desk', voice_name: 'Priya', greeting: 'Namaste!', call_purpose: 'Confirm slots', prompt: LONG_PROMPT, tools: ['schedule_callback'], kb_item_ids: [docId] });
    expect(desk.status).toBeLessThan(300);
    deskId = (desk.body.data ?? desk.body).id;
    await call('POST', '/agents', { name: 'Survey', voice_name: 'Meera', greeting: 'Vanakkam', call_purpose: 'Survey', prompt: 'Ask three questions.', tools: [] });
  });
  afterAll(async () => {
    await h.close();
    tmp.remove();
  });

  it('pull writes the files, and plan then shows no changes', async () => {
    const pulled = await h.run(['pull', dir]);
    expect(pulled.exitCode, pulled.stderr).toBe(0);
    const yaml = readFileSync(join(dir, 'voicectl.yaml'), 'utf8');
    expect(yaml).toMatch(/^# yaml-language-server: \$schema=\.\/voicectl\.schema\.json/);
    expect(yaml).toContain('prompt: !file prompts/delivery-desk.md');
    expect(yaml).toContain('- kb/policies/refunds.md');
    expect(readFileSync(join(dir, 'prompts/delivery-desk.md'), 'utf8')).toBe(`${LONG_PROMPT}\n`);
    const lock = JSON.parse(readFileSync(join(dir, 'voicectl.lock.json'), 'utf8'));
    expect(lock.agents['delivery-desk'].id).toBe(deskId);

    const before = h.sandbox.requests.length;
    const plan = await h.run(['plan', dir, '--check']);
    expect(plan.exitCode, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toContain('No changes');
    expect(writes(h.sandbox.requests.slice(before))).toEqual([]);
  });

  it('apply asks first, and under CI without --yes changes nothing and names the flag', async () => {
    editYaml(dir, (doc) => doc.setIn(['agents', 'survey', 'greeting'], 'Vanakkam! Two minutes?'));
    const before = h.sandbox.requests.length;
    const r = await h.run(['apply', dir]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--yes');
    expect(writes(h.sandbox.requests.slice(before))).toEqual([]);
  });

  it('apply sends one PATCH with only the changed field; a second apply sends nothing', async () => {
    let before = h.sandbox.requests.length;
    const r = await h.run(['apply', dir, '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    const sent = writes(h.sandbox.requests.slice(before));
    expect(sent.map((q) => `${q.method} ${q.path}`)).toEqual([expect.stringMatching(/^PATCH \/agents\//)]);
    expect(sent[0]!.body).toEqual({ greeting: 'Vanakkam! Two minutes?' });

    before = h.sandbox.requests.length;
    const again = await h.run(['apply', dir, '--yes']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toContain('No changes');
    expect(writes(h.sandbox.requests.slice(before))).toEqual([]);
  });

  it('an edit made directly in the account makes plan --check exit 6 and name the field', async () => {
    const edit = await call('PATCH', `/agents/${deskId}`, { call_purpose: 'Confirm slots and addresses' });
    expect(edit.status).toBeLessThan(300);
    const r = await h.run(['plan', dir, '--check']);
    expect(r.exitCode).toBe(6);
    expect(r.stdout).toContain('update agent delivery-desk');
    expect(r.stdout).toMatch(/call_purpose: "Confirm slots and addresses" → "Confirm slots"/);
    expect(r.stderr).toContain('1 change pending');
    const json = await h.run(['plan', dir, '--json']);
    expect(JSON.parse(json.stdout).steps[0].changes).toEqual([{ field: 'call_purpose', old: 'Confirm slots and addresses', new: 'Confirm slots' }]);
    const fix = await h.run(['apply', dir, '--yes']);
    expect(fix.exitCode, fix.stderr).toBe(0);
  });

  it('a rename is one PATCH of the name, and the prompt file shows as a unified diff', async () => {
    editYaml(dir, (doc) => doc.setIn(['agents', 'delivery-desk', 'name'], 'Delivery team'));
    writeFileSync(join(dir, 'prompts/delivery-desk.md'), `${LONG_PROMPT.replace('Ask which', 'Ask politely which')}\n`);
    const plan = await h.run(['plan', dir]);
    expect(plan.stdout).toContain('name: "Delivery desk" → "Delivery team"');
    expect(plan.stdout).toContain('-Ask which slot suits the customer.');
    expect(plan.stdout).toContain('+Ask politely which slot suits the customer.');
    const before = h.sandbox.requests.length;
    const r = await h.run(['apply', dir, '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    const sent = writes(h.sandbox.requests.slice(before));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.path).toBe(`/agents/${deskId}`);
    expect(sent[0]!.body).toEqual({ name: 'Delivery team', prompt: LONG_PROMPT.replace('Ask which', 'Ask politely which') });
    const names = (await agents(h.api)).map((a) => a.name).sort();
    expect(names).toEqual(['Delivery team', 'Survey']);
  });

  it('creates agents, uploads a changed document, and manages a webhook endpoint without its secret', async () => {
    mkdirSync(join(dir, 'kb/policies'), { recursive: true });
    writeFileSync(join(dir, 'kb/policies/refunds.md'), '# Refunds\nWithin 45 days.\n');
    editYaml(dir, (doc) => {
      doc.setIn(['agents', 'front-desk'], { name: 'Front desk', voice_name: 'Kabir', greeting: 'Hello', call_purpose: 'Answer', prompt: 'Help.', tools: ['take_message'], documents: ['kb/policies/refunds.md'] });
      doc.setIn(['webhooks', 'crm'], { url: 'http://127.0.0.1:9/hooks', events: ['call.ended'] });
    });
    const before = h.sandbox.requests.length;
    const r = await h.run(['apply', dir, '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    const sent = writes(h.sandbox.requests.slice(before)).map((q) => `${q.method} ${q.path}`);
    expect(sent).toEqual(['POST /kb/items', 'POST /webhooks/endpoints', 'POST /agents']);
    expect(r.stderr).toContain('rotate-secret');
    expect(readFileSync(join(dir, 'voicectl.yaml'), 'utf8')).not.toContain('whsec_');
    expect(readFileSync(join(dir, 'voicectl.lock.json'), 'utf8')).not.toContain('whsec_');
    // The upload kept the document's id: the agent made by hand still has it.
    let desk = (await agents(h.api)).find((a) => a.id === deskId)!;
    if (!('kb_item_ids' in desk)) desk = (await call('GET', `/agents/${deskId}`)).body;
    const lock = JSON.parse(readFileSync(join(dir, 'voicectl.lock.json'), 'utf8'));
    expect(desk.kb_item_ids).toEqual([lock.documents['policies/refunds.md'].id]);

    const again = h.sandbox.requests.length;
    const plan = await h.run(['plan', dir, '--check']);
    expect(plan.exitCode, plan.stdout).toBe(0);
    expect(writes(h.sandbox.requests.slice(again))).toEqual([]);
  });

  it('deletes only with --prune, and only what the files managed', async () => {
    await call('POST', '/agents', { name: 'Made elsewhere', voice_name: 'Priya', greeting: 'Hi', call_purpose: 'x', prompt: 'x', tools: [] });
    editYaml(dir, (doc) => doc.deleteIn(['agents', 'survey']));
    const plain = await h.run(['plan', dir]);
    expect(plain.stdout).toContain('left in the account: agent survey');
    const before = h.sandbox.requests.length;
    const r = await h.run(['apply', dir, '--yes', '--prune']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(writes(h.sandbox.requests.slice(before)).map((q) => q.method)).toEqual(['DELETE']);
    const names = (await agents(h.api)).map((a) => a.name).sort();
    expect(names).toEqual(['Delivery team', 'Front desk', 'Made elsewhere']);
  });

  it('refuses to take over an agent of the same name made elsewhere, unless --adopt', async () => {
    editYaml(dir, (doc) => doc.setIn(['agents', 'elsewhere'], { name: 'Made elsewhere', greeting: 'Hello there' }));
    const r = await h.run(['plan', dir]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('already has an agent named "Made elsewhere"');
    expect(r.stderr).toContain('--adopt');
    const before = h.sandbox.requests.length;
    const adopt = await h.run(['apply', dir, '--yes', '--adopt']);
    expect(adopt.exitCode, adopt.stderr).toBe(0);
    const sent = writes(h.sandbox.requests.slice(before));
    expect(sent.map((q) => [q.method, q.body])).toEqual([['PATCH', { greeting: 'Hello there' }]]);
  });

  it('never sent a body with null in it', () => {
    const bodies = writes(h.sandbox.requests).map((q) => q.body);
    expect(bodies.length).toBeGreaterThan(5);
    expect(bodies.filter(hasNull)).toEqual([]);
  });
});

describe('a field voicectl does not know', () => {
  const h = sharedHarness({ variant: OTHER_CHOICES });

  it('survives pull → edit → apply byte for byte, and is sent only when changed in the files', async () => {
    const call = (method: string, path: string, body?: unknown) => h.api(method, path, body);
    await call('POST', '/agents', { name: 'Collections', voice_name: 'Priya', greeting: 'Hello', call_purpose: 'Remind', prompt: 'Be kind.', tools: [] });
    const raw = async () => JSON.stringify((await agents(h.api))[0]!.voicemail);
    const original = await raw();
    const dir = join(h.dir, 'acct');
    expect((await h.run(['pull', dir])).exitCode).toBe(0);
    expect(readFileSync(join(dir, 'voicectl.yaml'), 'utf8')).toContain('other_fields:');
    editYaml(dir, (doc) => doc.setIn(['agents', 'collections', 'greeting'], 'Hello again'));
    const before = h.sandbox.requests.length;
    const r = await h.run(['apply', dir, '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    const sent = writes(h.sandbox.requests.slice(before));
    expect(sent.map((q) => q.body)).toEqual([{ greeting: 'Hello again' }]);
    expect(await raw()).toBe(original);

    // Changed in the files, it is sent as written.
    editYaml(dir, (doc) => doc.setIn(['agents', 'collections', 'other_fields', 'voicemail', 'note'], 'after hours'));
    const next = h.sandbox.requests.length;
    expect((await h.run(['apply', dir, '--yes'])).exitCode).toBe(0);
    const patch = writes(h.sandbox.requests.slice(next));
    expect(patch.map((q) => q.body)).toEqual([{ voicemail: { ...JSON.parse(original), note: 'after hours' } }]);
    expect(JSON.parse(await raw())).toEqual({ ...JSON.parse(original), note: 'after hours' });
    expect((await h.run(['plan', dir, '--check'])).exitCode).toBe(0);
  });
});
