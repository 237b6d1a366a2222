/**
 * Terminal escape sequences in other people's text: a contact's name from a spreadsheet
 * and a hostile server's agent names are shown escaped at a terminal, never obeyed, while
 * --json and CSV keep them exactly.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, runCli, sharedHarness } from '../helpers/cli.js';
import { listenOnLoopback, type Listening } from '../helpers/loopback.js';
import { tempDir, type TempDir } from '../helpers/temp.js';
import { campaignDone, givenAgent } from '../helpers/given.js';

/** Sets the window title to "pwned", rings the bell, clears the screen. */
const EVIL = '\x1b]0;pwned\x07\x1b[2J';
const EVIL_SHOWN = '\\x1b]0;pwned\\x07\\x1b[2J';
/** 0x9b is CSI on its own (C1), DEL is 0x7f. */
const C1 = 'Pune\u009b31mred\u007f';
/** Any control character a terminal would act on (TAB and LF are layout). */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('a contact named with escape sequences, from a spreadsheet, through the sandbox', () => {
  const h = sharedHarness();
  let campaignId: string;
  let csvPath: string;
  let createStderr: string;

  beforeAll(async () => {
    csvPath = join(h.dir, 'leads.csv');
    writeFileSync(csvPath, `phone,name,city\n+919876543210,"${EVIL}",Chennai\n+919876543211,Asha,${C1}\n+919876543212,Ravi,Delhi\n`);
    const agent = await givenAgent(h.api);
    const r = await h.run(['campaign', 'create', '--name', 'Hostile', '--agent', agent.id, '--csv', csvPath, '--launch', '--yes', '--json', '--ignore-calling-hours']);
    expect(r.exitCode, r.stderr).toBe(0);
    createStderr = r.stderr;
    const created = JSON.parse(r.stdout) as { id: string } | Array<{ id: string }>;
    campaignId = Array.isArray(created) ? created[0]!.id : created.id;
    await campaignDone(h.api, campaignId);
  });

  it('contacts validate warns about the rows with control characters, and still passes them', async () => {
    const r = await h.run(['contacts', 'validate', csvPath]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/warning: .*rows 2, 3 have control characters/);
    expect(r.stdout + r.stderr).not.toMatch(RAW_CONTROL);
    const json = await h.run(['contacts', 'validate', csvPath, '--json']);
    expect(JSON.parse(json.stdout).valid).toBe(3);
    expect(json.stderr).toMatch(/rows 2, 3/);
  });

  it('campaign create --csv gives the same warning, and sends the names exactly', async () => {
    expect(createStderr).toMatch(/warning: leads\.csv: rows 2, 3 have control characters/);
    expect(createStderr).not.toMatch(RAW_CONTROL);
    const sent = h.sandbox.requests.find((q) => q.method === 'POST' && q.path === '/campaigns/json')!.body as { contacts: Array<{ name: string }> };
    expect(sent.contacts[0]!.name).toBe(EVIL);
  });

  it('campaign contacts shows the name escaped in the table, exact in --json and CSV', async () => {
    const table = await h.run(['campaign', 'contacts', campaignId]);
    expect(table.exitCode).toBe(0);
    expect(table.stdout).toContain(EVIL_SHOWN);
    expect(table.stdout).toContain('\\x9b31mred\\x7f');
    expect(table.stdout + table.stderr).not.toMatch(RAW_CONTROL);

    const json = await h.run(['campaign', 'contacts', campaignId, '--json']);
    const names = (JSON.parse(json.stdout) as Array<{ name: string; extra: { city?: string } }>).map((c) => c.name);
    expect(names).toContain(EVIL);
    const csv = await h.run(['campaign', 'contacts', campaignId, '-o', 'csv']);
    expect(csv.stdout).toContain(EVIL);
    expect(csv.stdout).toContain(C1);
  });

  it('call list and call get show it escaped', async () => {
    const list = await h.run(['call', 'list', '--campaign', campaignId]);
    expect(list.exitCode).toBe(0);
    expect(list.stdout + list.stderr).not.toMatch(RAW_CONTROL);

    const calls = JSON.parse((await h.run(['call', 'list', '--campaign', campaignId, '--json'])).stdout) as Array<{ call_id: string; contact: { name: string } }>;
    const evil = calls.find((c) => c.contact.name === EVIL);
    expect(evil, 'the call to the hostile contact').toBeDefined();
    const get = await h.run(['call', 'get', evil!.call_id]);
    expect(get.exitCode).toBe(0);
    expect(get.stdout).toContain(`contact     ${EVIL_SHOWN}`);
    expect(get.stdout + get.stderr).not.toMatch(RAW_CONTROL);

    const raw = JSON.parse((await h.run(['call', 'get', evil!.call_id, '--json'])).stdout) as { contact: { name: string } };
    expect(raw.contact.name).toBe(EVIL);
  });
});

describe('a hostile server\'s agent names and error messages', () => {
  let server: Listening;
  let dir: TempDir;
  const agents = [
    { id: '11111111-1111-4111-8111-111111111111', name: `Sales${EVIL}`, status: 'active', language: 'en-IN', voice_name: `Priya\u009b2J`, direction: 'outbound', greeting: 'Hi\r\nthere\x1b[1A', tools: [] },
    { id: '22222222-2222-4222-8222-222222222222', name: 'Support\x1b[8m', status: 'active', language: 'hi-IN', voice_name: 'Arjun', direction: 'inbound', tools: [] },
  ];

  const evilCall = {
    call_id: 'call_evil', campaign_id: null, agent_id: agents[0]!.id, agent_name: agents[0]!.name, direction: 'outbound',
    phone_number: '+919876543210', status: 'completed', end_reason: 'completed', outcome: `done\x1b[2J`, summary: 'Fine.',
    error: null, duration_seconds: 12, start_time: '2026-01-01T10:00:00Z', end_time: '2026-01-01T10:00:12Z', has_recording: false,
    contact: { name: EVIL, extra: { note: '\x07' } },
    transcript: [
      { role: 'agent', text: `Hello${EVIL}, how are you?`, timestamp: '2026-01-01T10:00:01Z' },
      { role: 'user\x1b[31m', text: 'Fine\u009b2J thanks', timestamp: '2026-01-01T10:00:04Z' },
    ],
  };

  beforeAll(async () => {
    server = await listenOnLoopback(createServer((req: IncomingMessage, res: ServerResponse) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (url.pathname === '/agents') return send(200, { agents, total: agents.length, limit: 50, offset: 0 });
      const one = agents.find((a) => url.pathname === `/agents/${a.id}`);
      if (one) return send(200, one);
      if (url.pathname === '/calls/call_evil') return send(200, evilCall);
      return send(404, { error: `no such thing\x1b]0;owned\x07\x1b[2J`, status_code: 404 });
    }));
    dir = tempDir();
  });
  afterAll(async () => {
    await server.close();
    dir.remove();
  });

  const run = (args: string[]) => runCli(args, { ...baseEnv(dir.dir), VOICECTL_BASE_URL: server.url, VOICECTL_API_KEY: 'sk_test_hostile' });

  it('agent list: escaped in the table, exact in --json', async () => {
    const table = await run(['agent', 'list']);
    expect(table.exitCode).toBe(0);
    expect(table.stdout).toContain(`Sales${EVIL_SHOWN}`);
    expect(table.stdout).toContain('Support\\x1b[8m');
    expect(table.stdout).toContain('Priya\\x9b2J');
    expect(table.stdout + table.stderr).not.toMatch(RAW_CONTROL);
    const json = JSON.parse((await run(['agent', 'list', '--json'])).stdout) as Array<{ name: string }>;
    expect(json.map((a) => a.name)).toEqual(agents.map((a) => a.name));
  });

  it('agent get: every field escaped, line breaks kept as layout', async () => {
    const r = await run(['agent', 'get', agents[0]!.id]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(`Sales${EVIL_SHOWN}`);
    // The second line starts under the first, so a multi-line prompt keeps its shape.
    expect(r.stdout).toMatch(/Hi\n {2,}there\\x1b\[1A/);
    expect(r.stdout + r.stderr).not.toMatch(RAW_CONTROL);
  });

  it('call get: fields and transcript escaped', async () => {
    const r = await run(['call', 'get', 'call_evil']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(`Agent: Hello${EVIL_SHOWN}, how are you?`);
    expect(r.stdout).toContain('User\\x1b[31m: Fine\\x9b2J thanks');
    expect(r.stdout).toContain('done\\x1b[2J');
    expect(r.stdout + r.stderr).not.toMatch(RAW_CONTROL);
    const raw = JSON.parse((await run(['call', 'get', 'call_evil', '--json'])).stdout) as typeof evilCall;
    expect(raw).toEqual(evilCall);
  });

  it('an error message quoting the server is escaped too', async () => {
    const r = await run(['call', 'get', 'call_missing']);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('\\x1b]0;owned\\x07');
    expect(r.stdout + r.stderr).not.toMatch(RAW_CONTROL);
  });
});
