import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { fakeServer, type FakeServer, makeCall, send } from '../../export/fake-server.js';
import { run } from '../../helpers/run.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { harness, type Harness } from '../../helpers/cli.js';
import { givenAgent, givenFinishedCampaign, listedIds, ok, plantCalls } from '../../helpers/given.js';
import { tempDir } from '../../helpers/temp.js';

describe('against a server that answers as the spec shows', () => {
  let s: FakeServer;
  let wrapped: FakeServer;
  beforeAll(async () => {
    const calls = Array.from({ length: 120 }, (_, i) => makeCall(i));
    calls[3] = makeCall(3, { summary: '=HYPERLINK("http://evil","click"), then more text that is quite long indeed', contact: { name: '@boss', extra: {} } });
    s = await fakeServer(calls);
    wrapped = await fakeServer(calls, {
      beforePage: (_o, _n, res) => {
        send(res, 200, { data: { calls: calls.slice(0, 2) }, meta: { total: 2 } });
        return true;
      },
    });
  });
  afterAll(async () => {
    await s.close();
    await wrapped.close();
  });
  const env = (x: FakeServer = s) => ({ VOICECTL_BASE_URL: x.url, VOICECTL_API_KEY: 'sk_test' });

  describe('call list', () => {
    it('prints a table with a hint when more calls match', async () => {
      const r = await run(['call', 'list', '-o', 'table', '--limit', '5'], { env: env(), tty: { stdout: false, columns: 140 } });
      expect(r.exitCode).toBe(0);
      const lines = r.stdout.trim().split('\n');
      expect(lines[0]).toMatch(/^TIME \(UTC\)\s+CALL ID\s+NUMBER\s+CONTACT\s+STATUS\s+OUTCOME\s+DURATION\s+SUMMARY/);
      expect(lines).toHaveLength(6);
      // Newest first: the service sent them oldest first.
      expect(lines[1]).toMatch(/^2024-05-01 09:04:00\s+call_000004\s/);
      expect(lines[5]).toContain('2024-05-01 09:00:00');
      expect(lines[5]).toContain('1m 00s');
      expect(r.stderr).toContain('Showing 5 of 120');
      expect(lines.every((l) => l.length <= 140)).toBe(true);
    });

    it('prints the API objects as a JSON array', async () => {
      const r = await run(['calls', 'ls', '--json', '--offset', '10', '--limit', '2'], { env: env() });
      const list = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
      expect(list.map((c) => c.call_id)).toEqual(['call_000010', 'call_000011']);
      expect(list[0]).toEqual(makeCall(10));
    });

    it('reads every page with --all', async () => {
      const r = await run(['call', 'list', '--all', '--json'], { env: env() });
      expect((JSON.parse(r.stdout) as unknown[]).length).toBe(120);
    });

    it('sends the filters, relative times counted back from now in UTC', async () => {
      const r = await run(['call', 'list', '--json', '--campaign', 'camp_1', '--status', 'completed', '--since', '90m', '--until', '2024-05-02'], {
        env: env(), now: () => new Date('2024-05-01T12:00:00Z'),
      });
      expect(r.exitCode).toBe(0);
      const q = s.requests.filter((x) => x.path === '/calls').at(-1)!.query;
      expect(Object.fromEntries(q)).toMatchObject({ campaign_id: 'camp_1', status: 'completed', since: '2024-05-01T10:30:00.000Z', until: '2024-05-02T00:00:00.000Z' });
    });

    it('rejects a time it cannot read with exit 2, before any request', async () => {
      const before = s.requests.length;
      const r = await run(['call', 'list', '--since', 'last tuesday'], { env: env() });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain('is not a time');
      expect(s.requests.length).toBe(before);
    });

    it('refuses --since after --until (exit 2)', async () => {
      const r = await run(['call', 'list', '--since', '2024-05-02', '--until', '2024-05-01'], { env: env() });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain('must be before --until');
    });

    it('writes CSV with formula escaping', async () => {
      const r = await run(['call', 'list', '-o', 'csv', '--limit', '5'], { env: env() });
      const rows = Papa.parse<Record<string, string>>(r.stdout, { header: true, skipEmptyLines: true }).data;
      expect(rows[3]!.summary!.startsWith('\'=HYPERLINK')).toBe(true);
      expect(rows[0]!.phone_number).toBe('+919800000000');
    });

    // The spec shows this envelope ({calls, total, limit, offset}): another one is not read as calls.
    it('refuses an envelope other than the one the spec shows', async () => {
      const r = await run(['call', 'list', '--json'], { env: env(wrapped) });
      expect(r.exitCode).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/sent an unexpected response: expected \{calls: \[\.\.\.\], total, limit, offset\}, got an object with data, meta/);
    });
  });

  describe('call get', () => {
    it('shows the fields and the transcript as a conversation', async () => {
      const r = await run(['call', 'get', 'call_000007', '-o', 'table'], { env: env() });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toMatch(/call id\s+call_000007/);
      expect(r.stdout).toMatch(/outcome\s+requirements_gathered/);
      expect(r.stdout).toContain('Transcript');
      expect(r.stdout).toContain('00:00 Agent: Hello call_000007');
    });

    it('prints the object exactly as the API returned it with --json', async () => {
      const r = await run(['call', 'get', 'call_000007', '--json'], { env: env() });
      const obj = JSON.parse(r.stdout) as Record<string, unknown>;
      expect(obj).toEqual({ ...makeCall(7), transcript: [{ role: 'agent', text: 'Hello call_000007', timestamp: makeCall(7).start_time }] });
    });

    it('wraps long turns to the terminal, under their speaker', async () => {
      const long = 'Namaste! I am calling from Acme Logistics about the parcel you ordered last week, to find a delivery slot that suits you.';
      const t = await fakeServer([makeCall(1)], {
        transcript: (c) => [
          { role: 'agent', text: long, timestamp: c.start_time },
          { role: 'user', text: 'Haan, Tuesday morning works.', timestamp: new Date(Date.parse(c.start_time!) + 75_000).toISOString() },
        ],
      });
      try {
        const r = await run(['call', 'get', 'call_000001', '-o', 'table'], { env: env(t), tty: { stdout: true, columns: 60 } });
        const lines = r.stdout.split('\n');
        const at = lines.findIndex((l) => l.startsWith('00:00 Agent: Namaste!'));
        expect(at).toBeGreaterThan(0);
        expect(lines[at + 1]).toMatch(/^ {13}\S/);
        expect(lines.slice(at, at + 3).every((l) => l.length <= 60)).toBe(true);
        expect(lines.slice(at, at + 3).join(' ').replace(/\s+/g, ' ')).toContain(long);
        expect(r.stdout).toContain('01:15 User: Haan, Tuesday morning works.');
      } finally {
        await t.close();
      }
    });

    it('exits 4 for an unknown call', async () => {
      const r = await run(['call', 'get', 'nope'], { env: env() });
      expect(r.exitCode).toBe(4);
    });
  });
});

describe('against the sandbox, the built binary', () => {
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
});
