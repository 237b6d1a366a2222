/** The parts of `voicectl mcp` that need no server: cursors, cut transcripts, inline rows, secrets, the approval store. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, cutTranscript, ToolFailure } from '../../src/mcp/tool-spec.js';
import { TOOLS } from '../../src/mcp/tools.js';
import { rowsCsv, withoutSecrets } from '../../src/mcp/server.js';
import { ApprovalStore, APPROVAL_TTL_MS } from '../../src/approvals/store.js';
import { planHash, type PlanRecord } from '../../src/approvals/plan.js';

const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

function record(contacts = ['+919812345670']): PlanRecord {
  const plan = { campaign: { id: 'c1', name: 'Renewals' }, agent: { id: 'a1', name: 'Priya' }, contacts: contacts.map((phone_number) => ({ phone_number })), options: { ignore_calling_hours: false } };
  return { hash: planHash(plan), plan, findings: { checked: false, total: contacts.length, inside: 0, unknown: 0, outside: [] }, created_at: '2026-01-01T00:00:00.000Z' };
}

describe('mcp tools', () => {
  it('pages with an opaque cursor and refuses one it did not give', () => {
    expect(decodeCursor(encodeCursor(40))).toBe(40);
    expect(decodeCursor(undefined)).toBe(0);
    expect(() => decodeCursor('nonsense')).toThrow(ToolFailure);
    expect(() => decodeCursor(Buffer.from('{"offset":-3}').toString('base64url'))).toThrow(/cursor/);
  });

  it('cuts a long transcript with a note saying how to read it whole', () => {
    const turns = Array.from({ length: 1000 }, (_, i) => ({ speaker: i % 2 ? 'Agent' : 'Customer', text: 'word '.repeat(20) }));
    const cut = cutTranscript({ call_id: 'call_1', transcript: turns }, 5000);
    expect(JSON.stringify(cut.transcript).length).toBeLessThanOrEqual(5000);
    expect(cut.transcript_note).toMatch(/^Transcript cut at \d+ of 1000 turns .*voicectl call get call_1 --json/);
    const text = cutTranscript({ call_id: 'call_2', transcript: 'x'.repeat(9000) }, 5000);
    expect((text.transcript as string).length).toBe(5000);
    const short = { call_id: 'call_3', transcript: [{ speaker: 'Agent', text: 'Hi' }] };
    expect(cutTranscript(short)).toBe(short);
  });

  it('writes inline rows as CSV, every cell quoted', () => {
    expect(rowsCsv([{ name: 'A "quoted", name', phone: '+91 98123 45670' }, { phone: 12, city: 'Pune' }]))
      .toBe('"name","phone","city"\r\n"A ""quoted"", name","+91 98123 45670",""\r\n"","12","Pune"\r\n');
  });

  it('drops secret fields wherever they are', () => {
    expect(withoutSecrets({ id: 1, secret: 's', nested: [{ api_key: 'k', url: 'u' }] })).toEqual({ id: 1, nested: [{ url: 'u' }] });
  });

  it('every tool has annotations that agree with its kind, and none deletes', () => {
    for (const t of TOOLS) {
      expect(t.annotations.readOnlyHint, t.name).toBe(t.kind === 'read');
      expect(t.name).not.toMatch(/delete/);
    }
  });
});

describe('approval store', () => {
  function store(): ApprovalStore {
    const dir = mkdtempSync(join(tmpdir(), 'voicectl-approvals-'));
    dirs.push(dir);
    return new ApprovalStore({ VOICECTL_CONFIG_DIR: dir });
  }

  it('an approval is used once', () => {
    const s = store();
    const r = record();
    s.savePending(r);
    expect(s.pending(r.hash)).toEqual(r);
    const now = new Date('2026-01-01T10:00:00Z');
    expect(s.consume(r.hash, now)).toBe(false);
    s.approve(r.hash, now);
    expect(s.consume(r.hash, now)).toBe(true);
    expect(s.consume(r.hash, now)).toBe(false);
    expect(s.pending(r.hash)).toBeUndefined();
  });

  it('an approval lapses after an hour', () => {
    const s = store();
    const r = record();
    s.approve(r.hash, new Date('2026-01-01T10:00:00Z'));
    expect(s.consume(r.hash, new Date(Date.parse('2026-01-01T10:00:00Z') + APPROVAL_TTL_MS + 1000))).toBe(false);
  });

  it('a pending plan whose content does not hash to its name is not shown', () => {
    const dir = mkdtempSync(join(tmpdir(), 'voicectl-approvals-'));
    dirs.push(dir);
    const s = new ApprovalStore({ VOICECTL_CONFIG_DIR: dir });
    const r = record();
    s.savePending(r);
    const forged = { ...r, plan: { ...r.plan, contacts: [{ phone_number: '+15550000000' }] } };
    writeFileSync(join(dir, 'approvals', 'pending', `${r.hash}.json`), JSON.stringify(forged));
    expect(s.pending(r.hash)).toBeUndefined();
  });

  it('the hash changes with the contacts', () => {
    expect(record(['+919812345670']).hash).not.toBe(record(['+919812345671']).hash);
    expect(record(['+919812345670']).hash).toBe(record(['+919812345670']).hash);
  });
});
