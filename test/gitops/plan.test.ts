import { describe, expect, it } from 'vitest';
import type { Account } from '../../src/gitops/account.js';
import { accountUrl, emptyLock, lockText, type Lock } from '../../src/gitops/lock.js';
import type { Desired, DesiredAgent, DesiredDocument } from '../../src/gitops/model.js';
import { makePlan } from '../../src/gitops/plan.js';
import { sendsRequest } from '../../src/gitops/steps.js';
import { maskKeyLike, planJson, renderPlan } from '../../src/gitops/render.js';

const PLAIN = new Proxy(((...t: unknown[]) => t.join(' ')) as never, { get: (_t, p) => (p === 'level' ? 0 : PLAIN) });

function desired(agents: DesiredAgent[] = [], extra: Partial<Desired> = {}): Desired {
  return { dir: '/x', file: '/x/voicectl.yaml', agents: new Map(agents.map((a) => [a.handle, a])), documents: new Map(), webhooks: new Map(), ...extra };
}

function account(agents: Account['agents'] = [], extra: Partial<Account> = {}): Account {
  return { agents, documents: new Map(), documentsById: new Map(), ...extra };
}

const A = { id: 'a1', name: 'Desk', voice_name: 'Priya', greeting: 'Hi', prompt: 'one\ntwo\nthree', tools: ['take_message', 'schedule_callback'], kb_item_ids: [] };

function lockWith(agents: Lock['agents']): Lock {
  return { ...emptyLock('http://x'), agents };
}

describe('makePlan: agents', () => {
  it('sends only the fields that differ, and compares tools as a set', () => {
    const plan = makePlan(
      desired([{ handle: 'desk', text: { name: 'Desk', greeting: 'Hello' }, tools: ['schedule_callback', 'take_message'], other: {} }]),
      lockWith({ desk: { id: 'a1', name: 'Desk' } }),
      account([A]),
    );
    expect(plan.steps).toEqual([expect.objectContaining({ kind: 'update-agent', id: 'a1', body: { fields: { greeting: 'Hello' } } })]);
  });

  it('a field the file leaves out is left alone', () => {
    const plan = makePlan(desired([{ handle: 'desk', text: { name: 'Desk' }, other: {} }]), lockWith({ desk: { id: 'a1', name: 'Desk' } }), account([A]));
    expect(plan.steps).toEqual([]);
  });

  it('a rename follows the lock, not the name', () => {
    const plan = makePlan(desired([{ handle: 'desk', text: { name: 'Front desk' }, other: {} }]), lockWith({ desk: { id: 'a1', name: 'Desk' } }), account([A]));
    expect(plan.steps).toEqual([expect.objectContaining({ kind: 'update-agent', body: { fields: { name: 'Front desk' } } })]);
  });

  it('an agent deleted in the account is created again', () => {
    const plan = makePlan(desired([{ handle: 'desk', text: { name: 'Desk', voice_name: 'Priya' }, other: {} }]), lockWith({ desk: { id: 'gone', name: 'Desk' } }), account([]));
    expect(plan.steps).toEqual([expect.objectContaining({ kind: 'create-agent', note: expect.stringContaining('deleted from the account') })]);
  });

  it('a same-named agent made elsewhere is a conflict unless adopted, or when a create was pending', () => {
    const want = desired([{ handle: 'desk', text: { name: 'Desk', greeting: 'Hi' }, other: {} }]);
    expect(() => makePlan(want, emptyLock(), account([A]))).toThrow(/already has an agent named "Desk" \(id a1\).*--adopt/);
    expect(makePlan(want, emptyLock(), account([A]), { adopt: true }).steps).toEqual([expect.objectContaining({ kind: 'record-agent', id: 'a1' })]);
    expect(makePlan(want, lockWith({ desk: { pending: 'create', name: 'Desk' } }), account([A])).steps).toEqual([expect.objectContaining({ kind: 'record-agent', id: 'a1' })]);
    expect(() => makePlan(want, emptyLock(), account([A, { ...A, id: 'a2' }]), { adopt: true })).toThrow(/2 agents in the account are named "Desk" \(a1, a2\)/);
  });

  it('other_fields: equal is untouched (nulls included), different is sent, a null to send is refused', () => {
    const server = { ...A, voicemail: { on: true, note: null } };
    const lock = lockWith({ desk: { id: 'a1', name: 'Desk' } });
    const same = makePlan(desired([{ handle: 'desk', text: {}, other: { voicemail: { note: null, on: true } } }]), lock, account([server]));
    expect(same.steps).toEqual([]);
    const changed = makePlan(desired([{ handle: 'desk', text: {}, other: { voicemail: { on: false, note: 'x' } } }]), lock, account([server]));
    expect(changed.steps[0]).toMatchObject({ body: { fields: { voicemail: { on: false, note: 'x' } } } });
    expect(() => makePlan(desired([{ handle: 'desk', text: {}, other: { voicemail: { on: false, note: null } } }]), lock, account([server]))).toThrow(/holds null/);
  });

  it('prunes only with --prune and only what the lock names; forgets what is gone from both', () => {
    const lock = lockWith({ old: { id: 'a1', name: 'Desk' }, gone: { id: 'zz', name: 'Gone' } });
    const other = { ...A, id: 'b1', name: 'Made elsewhere' };
    const kept = makePlan(desired(), lock, account([A, other]));
    expect(kept.steps).toEqual([expect.objectContaining({ kind: 'forget', key: 'gone' })]);
    expect(kept.notes.join()).toContain('agent old');
    const pruned = makePlan(desired(), lock, account([A, other]), { prune: true });
    expect(pruned.steps.filter(sendsRequest)).toEqual([expect.objectContaining({ kind: 'delete-agent', id: 'a1' })]);
  });
});

describe('makePlan: documents and webhooks', () => {
  const doc: DesiredDocument = { local: 'kb/faq.md', folder: 'help', name: 'faq.md', content: { sha256: 'abc', size: 10, absPath: '/x/kb/faq.md', root: '/x' } };
  const serverDoc = { id: 'd1', path: 'help/faq.md', folder: 'help', name: 'faq.md', size_bytes: 10 };
  const withDoc = (d: DesiredDocument = doc) => desired([], { documents: new Map([[d.local, d]]) });
  const acct = account([], { documents: new Map([['help/faq.md', serverDoc]]), documentsById: new Map([['d1', serverDoc]]) });

  it('uploads by content hash; the same hash is no change; a size changed in the account is', () => {
    const lock = { ...emptyLock(), documents: { 'help/faq.md': { id: 'd1', sha256: 'abc', size_bytes: 10 } } };
    expect(makePlan(withDoc(), lock, acct).steps).toEqual([]);
    expect(makePlan(withDoc({ ...doc, content: { ...doc.content!, sha256: 'def' } }), lock, acct).steps).toEqual([expect.objectContaining({ kind: 'upload-document', reason: 'changed' })]);
    const edited = account([], { documents: new Map([['help/faq.md', { ...serverDoc, size_bytes: 99 }]]) });
    expect(makePlan(withDoc(), lock, edited).steps).toEqual([expect.objectContaining({ reason: 'changed in the account' })]);
  });

  it('a reference without a local file needs the account\'s copy', () => {
    const ref = { ...doc, content: undefined };
    expect(makePlan(withDoc(ref), emptyLock(), acct).steps).toEqual([expect.objectContaining({ kind: 'record-document', id: 'd1' })]);
    expect(() => makePlan(withDoc(ref), emptyLock(), account())).toThrow(/not in the folder, and the account has no document help\/faq.md/);
  });

  it('webhooks: omitted events mean all of them, and a service without a list is compared with the lock', () => {
    const hooks = new Map([['crm', { handle: 'crm', url: 'https://h.example/x' }]]);
    const lock = { ...emptyLock(), webhooks: { crm: { id: 'w1', url: 'https://h.example/x' } } };
    const listed = account([], { webhooks: [{ id: 'w1', url: 'https://h.example/x', events: ['call.ended', 'call.recording_ready', 'campaign.completed', 'ping'], enabled: true }] });
    expect(makePlan(desired([], { webhooks: hooks }), lock, listed).steps).toEqual([]);
    const narrowed = account([], { webhooks: [{ id: 'w1', url: 'https://h.example/x', events: ['call.ended'] }] });
    expect(makePlan(desired([], { webhooks: hooks }), lock, narrowed).steps[0]).toMatchObject({ body: { events: ['call.ended', 'call.recording_ready', 'campaign.completed', 'ping'] } });
    const unlisted = makePlan(desired([], { webhooks: new Map([['crm', { handle: 'crm', url: 'https://h.example/y' }]]) }), lock, account());
    expect(unlisted.steps[0]).toMatchObject({ kind: 'update-webhook', body: { url: 'https://h.example/y' } });
    expect(unlisted.notes.join()).toContain('does not list webhook endpoints');
  });
});

describe('rendering', () => {
  it('long text as a unified diff, short values as old → new, and JSON without local paths', () => {
    const plan = makePlan(
      desired([{ handle: 'desk', text: { greeting: 'Hello', prompt: 'one\n2\nthree' }, other: {} }]),
      lockWith({ desk: { id: 'a1', name: 'Desk' } }),
      account([A]),
    );
    const text = renderPlan(plan, PLAIN).join('\n');
    expect(text).toContain('greeting: "Hi" → "Hello"');
    expect(text).toMatch(/@@ -1,3 \+1,3 @@\n\s+ one\n\s+-two\n\s+\+2\n\s+ three/);
    expect(text).toContain('Plan: 0 to create, 1 to update, 0 to upload, 0 to delete.');
    expect(planJson(plan)).toMatchObject({ changes_pending: 1, steps: [{ action: 'update-agent', id: 'a1' }] });
  });

  it('the lock file is written with sorted keys', () => {
    const text = lockText({ ...emptyLock('http://x'), agents: { b: { id: '2' }, a: { id: '1' } } });
    expect(text.indexOf('"a"')).toBeLessThan(text.indexOf('"b"'));
  });
});

describe('what a plan and a lock never show', () => {
  it('maskKeyLike hides tokens and key-like assignments, and leaves ordinary words alone', () => {
    expect(maskKeyLike('VOICECTL_API_KEY=sk_sandbox_abcdef123456 PATH=/usr/bin')).toBe('VOICECTL_API_KEY=*** PATH=/usr/bin');
    expect(maskKeyLike('{"api_key": "k-1234567890"}')).toBe('{"api_key": "***"}');
    expect(maskKeyLike('use whsec_0123456789abcdef to verify')).toBe('use *** to verify');
    expect(maskKeyLike('token ghp_abcdefghijklmnopqrstuvwxyz0123')).toBe('token ***');
    const plain = 'Ask for their password: never share it. The secret to a good call is listening.';
    expect(maskKeyLike(plain)).toBe(plain);
  });

  it('the lock records a base URL as origin and path only', () => {
    expect(accountUrl('https://me:hunter2@api.example.com/v1/?api_key=sk_live_x#frag')).toBe('https://api.example.com/v1');
    expect(accountUrl('http://127.0.0.1:4010')).toBe('http://127.0.0.1:4010');
  });
});
