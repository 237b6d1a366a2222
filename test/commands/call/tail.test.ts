/**
 * `call tail` end to end: the built binary follows the sandbox (600x clock, so calls end
 * in a fraction of a second) as a real process, until SIGINT.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa, type ResultPromise } from 'execa';
import { BIN, harness, type Harness } from '../../helpers/cli.js';
import { allCalls, ok } from '../../helpers/given.js';
import { listenOnLoopback } from '../../helpers/loopback.js';

let h: Harness;
let agentId = '';
let phone = 7000000;

beforeAll(async () => {
  h = await harness({ timeScale: 600, seed: 23 });
  const agent = await api('POST', '/agents', {
    name: 'Follow-up desk', voice_name: 'Priya', greeting: 'Namaste!', call_purpose: 'Follow-up',
    prompt: 'Ask how the delivery went.', tools: [],
  });
  agentId = agent.id;
});
afterAll(async () => h.close());

const api = (method: string, path: string, body?: unknown) => ok(h.api, method, path, body);

async function draft(contacts: number): Promise<string> {
  const c = await api('POST', '/campaigns/json', {
    name: `Follow-up ${contacts}`,
    agent_id: agentId,
    contacts: Array.from({ length: contacts }, (_, i) => ({ phone_number: `+9198${String(phone++).padStart(8, '0')}`, name: `C${i}`, extra: { i } })),
  });
  return c.id;
}

const launch = (id: string) => api('POST', `/campaigns/${id}/launch`);

async function completed(id: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if ((await api('GET', `/campaigns/${id}`)).status === 'completed') return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`campaign ${id} did not complete`);
}

/** A running `call tail`: its output so far, and a way to wait for it. */
function tail(args: string[], env: Record<string, string> = h.env) {
  const child: ResultPromise = execa(process.execPath, [BIN, 'call', 'tail', ...args], { reject: false, extendEnv: false, env, timeout: 60_000 });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
  child.stderr!.on('data', (d: Buffer) => { err += d.toString(); });
  return {
    child,
    out: () => out,
    err: () => err,
    lines: () => out.split('\n').filter(Boolean),
    async until(what: string, test: () => boolean): Promise<void> {
      for (let i = 0; i < 600; i++) {
        if (test()) return;
        if (child.exitCode !== null) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`call tail never showed ${what}; stdout:\n${out}\nstderr:\n${err}`);
    },
    async interrupt() {
      child.kill('SIGINT');
      return child;
    },
  };
}

describe('call tail against the sandbox', () => {
  it('--json: every call of two campaigns exactly once as it finishes, then exit 130 on SIGINT', async () => {
    const t = tail(['--json', '--interval', '0.1']);
    await t.until('that it is ready', () => t.err().includes('Following calls'));
    const [a, b] = [await draft(40), await draft(25)];
    await launch(a);
    await launch(b);
    await Promise.all([completed(a), completed(b)]);
    const expected = [...await allCalls(h.api, `campaign_id=${a}`), ...await allCalls(h.api, `campaign_id=${b}`)];
    expect(expected).toHaveLength(65);
    await t.until('every call', () => t.lines().length >= 65);
    // A few more polls: nothing may come twice.
    await new Promise((r) => setTimeout(r, 400));
    const r = await t.interrupt();
    expect(r.exitCode).toBe(130);
    const lines = t.lines().map((l) => JSON.parse(l));
    expect(lines.map((c) => c.call_id).sort()).toEqual(expected.map((c) => c.call_id).sort());
    const byId = new Map(expected.map((c) => [c.call_id, c]));
    // The call as GET /calls lists it, finished (its recording may have been saved since).
    for (const c of lines) expect({ ...c, has_recording: undefined }).toEqual({ ...byId.get(c.call_id), has_recording: undefined });
    expect(lines.every((c) => c.end_time && c.status !== 'initiated')).toBe(true);
  });

  it('--campaign and --status: only that campaign\'s calls that finished with that status', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const [a, b] = [await draft(40), await draft(20)];
    const t = tail(['--json', '--interval', '0.1', '--campaign', a, '--status', 'no_answer', '--since', since]);
    await launch(a);
    await launch(b);
    await Promise.all([completed(a), completed(b)]);
    const expected = (await allCalls(h.api, `campaign_id=${a}`)).filter((c) => c.status === 'no_answer').map((c) => c.call_id).sort();
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(40);
    await t.until('every no-answer call', () => t.lines().length >= expected.length);
    await new Promise((r) => setTimeout(r, 400));
    const r = await t.interrupt();
    expect(r.exitCode).toBe(130);
    expect(t.lines().map((l) => JSON.parse(l).call_id).sort()).toEqual(expected);
  });

  it('people\'s lines: time, id, number, contact, outcome, duration and summary, one per call', async () => {
    const id = await draft(5);
    const t = tail(['--campaign', id, '--interval', '0.1']);
    await t.until('that it is ready', () => t.err().includes('Following calls'));
    await launch(id);
    await completed(id);
    const calls = await allCalls(h.api, `campaign_id=${id}`);
    await t.until('every call', () => t.lines().length >= 5);
    const r = await t.interrupt();
    expect(r.exitCode).toBe(130);
    for (const c of calls) {
      const line = t.lines().find((l) => l.includes(c.call_id))!;
      expect(line).toMatch(/^\d\d:\d\d:\d\d UTC  call_/);
      expect(line).toContain(c.phone_number);
      expect(line).toContain(c.contact.name);
      expect(line).toContain(c.outcome ?? c.status);
    }
  });

  it('a failed poll is said once on stderr and loses nothing', async () => {
    // In front of the sandbox: GET /calls answers 500 three times in a row, once the tail is running.
    let callsRequests = 0;
    const proxy = createServer(async (req: IncomingMessage, res: ServerResponse) => {
      if (req.url?.startsWith('/calls?') && ++callsRequests >= 3 && callsRequests <= 5) {
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'database unavailable', status_code: 500 }));
        return;
      }
      const upstream = await h.api(req.method!, req.url!, undefined, String(req.headers['x-api-key'] ?? ''));
      res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(JSON.stringify(upstream.body));
    });
    const front = await listenOnLoopback(proxy);
    try {
      const id = await draft(30);
      const t = tail(['--json', '--interval', '0.2', '--campaign', id], { ...h.env, VOICECTL_BASE_URL: front.url });
      await t.until('that it is ready', () => t.err().includes('Following calls'));
      await launch(id);
      await completed(id);
      const expected = (await allCalls(h.api, `campaign_id=${id}`)).map((c) => c.call_id).sort();
      await t.until('every call', () => t.lines().length >= 30);
      await new Promise((r) => setTimeout(r, 600));
      const r = await t.interrupt();
      expect(r.exitCode).toBe(130);
      expect(callsRequests).toBeGreaterThan(5);
      expect(t.lines().map((l) => JSON.parse(l).call_id).sort()).toEqual(expected);
      expect(t.err().match(/poll failed/g)).toHaveLength(1);
      expect(t.err()).toContain('HTTP 500: database unavailable');
      expect(t.err()).toContain('Polling recovered.');
    } finally {
      await front.close();
    }
  });

  it.each([
    ['a refused key', ['--json'], { VOICECTL_API_KEY: 'sk_wrong' }, 3, 'refused the API key'],
    ['an unknown campaign', ['--campaign', '3f1c0000-0000-4000-8000-000000000000'], {}, 4, 'no campaign with id 3f1c0000-0000-4000-8000-000000000000'],
    ['a bad --interval', ['--interval', '0'], {}, 2, ''],
    ['-o csv', ['-o', 'csv'], {}, 2, 'no CSV output'],
  ])('ends with the usual exit code: %s (%#)', async (_what, args, env, code, says) => {
    const r = await h.run(['call', 'tail', ...args], { env });
    expect(r.exitCode).toBe(code);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(says);
  });
});
