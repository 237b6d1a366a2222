import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/cli.js';
import { givenAgent, givenFinishedCampaign, listedIds, ok, plantCalls } from '../helpers/given.js';
import { tempDir } from '../helpers/temp.js';

let h: Harness;
let campaignId: string;
let planted: string[];
const HOUR = 3_600_000;

beforeAll(async () => {
  h = await harness();
  const agent = await givenAgent(h.api, { greeting: 'Namaste!' });
  campaignId = (await givenFinishedCampaign(h.api, { agentId: agent.id, contacts: 30 })).id;
  const now = Date.now();
  planted = plantCalls(h.sandbox, [now - 3 * HOUR, now - 1.5 * HOUR, now - HOUR / 3]);
});
afterAll(async () => h.close());

const json = <T = Array<Record<string, any>>>(s: string) => JSON.parse(s) as T;

describe('call list against the sandbox', () => {
  it('lists a campaign\'s calls, every page with --all', async () => {
    const r = await h.run(['call', 'list', '--campaign', campaignId, '--all', '--json']);
    expect(r.exitCode).toBe(0);
    const ids = json(r.stdout).map((c) => c.call_id);
    expect(new Set(ids)).toEqual(new Set(await listedIds(h.api, { campaign_id: campaignId })));
    expect(ids).toHaveLength(30);
  });

  it('filters by status', async () => {
    const r = await h.run(['call', 'list', '--campaign', campaignId, '--status', 'completed', '--all', '--json']);
    const list = json(r.stdout);
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((c) => c.status === 'completed')).toBe(true);
    expect(list.length).toBeLessThan(30);
  });

  it('reads relative times back from now', async () => {
    const window = await h.run(['call', 'list', '--since', '2h', '--until', '1h', '--all', '--json']);
    expect(window.exitCode).toBe(0);
    expect(json(window.stdout).map((c) => c.call_id)).toEqual([planted[1]]);

    const recent = json((await h.run(['call', 'list', '--since', '30m', '--all', '--json'])).stdout).map((c) => c.call_id);
    expect(recent).toContain(planted[2]);
    expect(recent).not.toContain(planted[0]);
    expect(recent).not.toContain(planted[1]);
    expect(recent.filter((id) => !id.startsWith('call_planted_'))).toHaveLength(30);
  });

  it('reads an ISO time without an offset as UTC', async () => {
    const t = new Date(Date.now() - 2 * HOUR).toISOString().slice(0, 19);
    const r = await h.run(['call', 'list', '--until', t, '--all', '--json']);
    expect(json(r.stdout).map((c) => c.call_id)).toEqual([planted[0]]);
  });

  it('refuses a time it cannot read (exit 2)', async () => {
    const r = await h.run(['call', 'list', '--since', '2 fortnights']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('is not a time');
  });

  it('prints a table', async () => {
    const r = await h.run(['call', 'list', '--campaign', campaignId, '-o', 'table']);
    expect(r.stdout.split('\n')[0]).toMatch(/^TIME \(UTC\)\s+CALL ID\s+NUMBER\s+CONTACT\s+STATUS\s+OUTCOME\s+DURATION\s+SUMMARY/);
    expect(r.stdout).toContain('+9198');
  });
});

describe('call get and call recording against the sandbox', () => {
  async function answeredCall(): Promise<Record<string, any>> {
    const r = await h.run(['call', 'list', '--campaign', campaignId, '--status', 'completed', '--json', '--limit', '1']);
    return json(r.stdout)[0]!;
  }

  it('shows the transcript as a conversation timed from the call\'s start', async () => {
    const c = await answeredCall();
    const r = await h.run(['call', 'get', c.call_id, '-o', 'table']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`call id\\s+${c.call_id}`));
    expect(r.stdout).toMatch(/^\d\d:\d\d Agent: Namaste!/m);
    expect(r.stdout).toMatch(/^\d\d:\d\d User: /m);
  });

  it('prints the call exactly as the API returned it with --json', async () => {
    const c = await answeredCall();
    const r = await h.run(['call', 'get', c.call_id, '--json']);
    expect(json<Record<string, unknown>>(r.stdout)).toEqual(await ok(h.api, 'GET', `/calls/${c.call_id}`));
  });

  it('asks for a fresh link every time and downloads the audio without the key', async () => {
    const c = await answeredCall();
    expect(c.has_recording).toBe(true);
    const before = h.sandbox.requests.length;
    const link = await h.run(['call', 'recording', c.call_id]);
    expect(link.exitCode).toBe(0);
    expect(link.stdout.trim()).toMatch(new RegExp(`^${h.sandbox.url}/recordings/`));

    const t = tempDir();
    try {
      const file = join(t.dir, 'rec.wav');
      const r = await h.run(['call', 'recording', c.call_id, '--download', file]);
      expect(r.exitCode).toBe(0);
      expect(readFileSync(file).subarray(0, 4).toString()).toBe('RIFF');
      const asked = h.sandbox.requests.slice(before).filter((q) => q.path === `/calls/${c.call_id}/recording-url`);
      expect(asked).toHaveLength(2);
      const fetched = h.sandbox.requests.slice(before).filter((q) => q.path.startsWith('/recordings/'));
      expect(fetched).toHaveLength(1);
      expect(fetched[0]!.headers['x-api-key']).toBeUndefined();
    } finally {
      t.remove();
    }
  });

  it('exits 4 for a call that does not exist', async () => {
    const r = await h.run(['call', 'get', 'call_nope']);
    expect(r.exitCode).toBe(4);
  });
});
