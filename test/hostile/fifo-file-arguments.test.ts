/**
 * A FIFO (named pipe) given where a file is expected, for every verb that reads a file the
 * user names. With no program writing to it, voicectl refuses it at once (exit 2) instead
 * of waiting forever; with a writer (`mkfifo` plus a program, or the shell's `<(…)`) it is
 * read as a stream; and Ctrl-C ends a read that a writer keeps open.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { verify } from '../../src/webhooks/signature.js';
import { baseEnv, BIN } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { eachHostile, KEY, sendJson, type Hostile } from './client-harness.js';

const { start, closeAfter } = eachHostile();

const SECRET = 'whsec_fifo_0123456789abcdef';
const RULES = 'rules:\n  - {id: long, kind: max_duration, severity: error, seconds: 600}\n';
const CALLS = JSON.stringify([{ call_id: 'c1', status: 'completed', duration_seconds: 700, start_time: '2026-01-01T10:00:00Z', end_time: '2026-01-01T10:11:40Z', transcript: [] }]);

interface Bodies { requests: Array<{ line: string; body: string; headers: Record<string, unknown> }> }

/** A server that answers what these verbs ask (an agent list, calls, a campaign) and keeps every body. */
async function server(): Promise<Hostile & Bodies> {
  const requests: Bodies['requests'] = [];
  const h = await start((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString('utf8'); });
    req.on('end', () => {
      requests.push({ line: `${req.method} ${req.url}`, body, headers: req.headers });
      const path = new URL(req.url!, 'http://x').pathname;
      if (req.method === 'GET' && path === '/agents') return sendJson(res, 200, { agents: [{ id: 'ag_1', name: 'Desk', status: 'active' }], total: 1, limit: 50, offset: 0 });
      if (req.method === 'GET' && path === '/calls') return sendJson(res, 200, { calls: [], total: 0, limit: 200, offset: 0 });
      if (req.method === 'GET' && path.startsWith('/campaigns/')) return sendJson(res, 200, { id: 'cmp_1', status: 'running' });
      if (req.method === 'POST' && path === '/agents') return sendJson(res, 201, { id: 'ag_2', ...(JSON.parse(body || '{}') as object) });
      sendJson(res, 200, { ok: true });
    });
  });
  return Object.assign(h, { requests });
}

function folder() {
  const t = tempDir();
  closeAfter({ close: async () => t.remove() });
  return t.dir;
}

function fifo(dir: string, name: string): string {
  const path = join(dir, name);
  execFileSync('mkfifo', [path]);
  return path;
}

/** A program that writes `text` into the FIFO (its open waits for voicectl's) and, with `hold`, keeps it open. */
function writer(path: string, text: string, hold = false): ChildProcess {
  const child = spawn('sh', ['-c', hold ? 'exec 3>"$2"; printf "%s" "$1" >&3; sleep 60' : 'printf "%s" "$1" > "$2"', 'sh', text, path], { stdio: 'ignore' });
  closeAfter({ close: async () => { child.kill('SIGKILL'); } });
  return child;
}

/** Each verb, with the FIFO where its file goes; `content` is what a writer puts there. */
interface Case {
  name: string;
  args(fifo: string, dir: string, h: Hostile): string[];
  /** The FIFO's own name: a .json for the readers that go by the extension. */
  file?: string;
  content: string;
  /** What shows that the content was read. */
  check(r: { exitCode: number; stdout: string; stderr: string }, h: Bodies): void;
}

const CASES: Case[] = [
  {
    name: 'api --input',
    args: (f) => ['api', 'POST', '/agents', '--input', f, '--yes'],
    content: '{"name":"From a pipe"}',
    check: (r, h) => {
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(h.requests.find((s) => s.line === 'POST /agents')!.body)).toEqual({ name: 'From a pipe' });
    },
  },
  {
    name: 'api -F name=@FILE',
    args: (f) => ['api', 'POST', '/agents', '-F', `prompt=@${f}`, '--yes'],
    content: 'Speak Hindi first.',
    check: (r, h) => {
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(h.requests.find((s) => s.line === 'POST /agents')!.body)).toEqual({ prompt: 'Speak Hindi first.' });
    },
  },
  {
    name: 'agent create --file',
    args: (f) => ['agent', 'create', '--file', f, '--json'],
    content: JSON.stringify({ name: 'Piped', voice_name: 'Asha', prompt: 'Be brief.', language: 'en-IN', greeting: 'Hello', call_purpose: 'Remind' }),
    check: (r, h) => {
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(h.requests.find((s) => s.line === 'POST /agents')!.body)).toMatchObject({ name: 'Piped', prompt: 'Be brief.' });
    },
  },
  {
    name: 'agent create --prompt-file',
    args: (f) => ['agent', 'create', '--name', 'Piped', '--voice', 'Asha', '--language', 'en-IN', '--greeting', 'Hello', '--call-purpose', 'Remind', '--prompt-file', f, '--json'],
    content: 'Namaste, main Asha bol rahi hoon.',
    check: (r, h) => {
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(h.requests.find((s) => s.line === 'POST /agents')!.body)).toMatchObject({ prompt: 'Namaste, main Asha bol rahi hoon.' });
    },
  },
  {
    name: 'calls check --rules',
    args: (f, dir) => {
      writeFileSync(join(dir, 'calls.json'), CALLS);
      return ['calls', 'check', '--rules', f, '--from-file', join(dir, 'calls.json'), '--json'];
    },
    content: RULES,
    check: (r) => {
      expect(r.exitCode, r.stderr).toBe(1);
      expect(JSON.parse(r.stdout)).toMatchObject({ passed: false, rules: [{ id: 'long', fail: 1 }] });
    },
  },
  {
    name: 'calls check --from-file',
    args: (f, dir) => {
      writeFileSync(join(dir, 'rules.yaml'), RULES);
      return ['calls', 'check', '--rules', join(dir, 'rules.yaml'), '--from-file', f, '--json'];
    },
    content: CALLS,
    check: (r) => {
      expect(r.exitCode, r.stderr).toBe(1);
      expect(JSON.parse(r.stdout)).toMatchObject({ calls: 1, rules: [{ id: 'long', fail: 1 }] });
    },
  },
  {
    name: 'trigger --secret-file (as listen reads it)',
    args: (f, _dir, h) => ['trigger', 'ping', '--to', `${h.url}/hook`, '--secret-file', f],
    content: `${SECRET}\n`,
    check: (r, h) => {
      expect(r.exitCode, r.stderr).toBe(0);
      const hook = h.requests.find((s) => s.line === 'POST /hook')!;
      expect(verify(SECRET, hook.body, String(hook.headers['service-signature']))).toMatchObject({ ok: true });
    },
  },
  {
    name: 'trigger --data',
    args: (f, dir, h) => {
      writeFileSync(join(dir, 'secret'), SECRET);
      return ['trigger', 'call.ended', '--to', `${h.url}/hook`, '--data', f, '--secret-file', join(dir, 'secret')];
    },
    content: '{"call_id":"call_from_pipe"}',
    check: (r, h) => {
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(h.requests.find((s) => s.line === 'POST /hook')!.body).data).toMatchObject({ call_id: 'call_from_pipe' });
    },
  },
  {
    name: 'campaign create --contacts',
    file: 'contacts.json',
    args: (f) => ['campaign', 'create', '--contacts', f, '--agent', 'Desk', '--name', 'Piped', '--dry-run', '--json'],
    content: '[{"phone_number":"+919876543210","name":"Asha"}]',
    check: (r) => {
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toContain('+919876543210');
    },
  },
  {
    name: 'events reconcile --log',
    args: (f) => ['events', 'reconcile', '--log', f, '--since', '1h', '--json'],
    content: `${JSON.stringify({ id: 'evt_1', type: 'call.ended', created_at: '2026-01-01T10:00:00.000Z', data: { call_id: 'c1' } })}\n`,
    check: (r) => {
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual([]);
    },
  },
  {
    name: 'test SUITE',
    args: (f) => ['test', f],
    content: 'name: piped\nagent: Desk\nscenarios:\n  - {name: one, phone_number: "+919876543210"}\n',
    check: (r) => {
      // Read and parsed: whatever the suite then says, it is not a read error.
      expect(r.stderr).not.toMatch(/named pipe|Cannot read/);
    },
  },
];

const env = (h: Hostile) => ({ ...baseEnv(h.config.dir), VOICECTL_BASE_URL: h.url, VOICECTL_API_KEY: KEY, VOICECTL_WEBHOOK_SECRET: undefined });

describe('a FIFO as a file argument', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s: with no writer, refused at once (exit 2), nothing sent', async (_name, c) => {
    const h = await server();
    const dir = folder();
    const f = fifo(dir, c.file ?? 'pipe');
    const r = await execa(process.execPath, [BIN, ...c.args(f, dir, h)], { reject: false, extendEnv: false, env: env(h), timeout: 20_000 });
    expect(r.timedOut, 'it waited on the FIFO').toBe(false);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/named pipe \(FIFO\) that no program is writing to/);
    expect(h.requests.filter((s) => s.line.startsWith('POST'))).toEqual([]);
  });

  it.each(CASES.map((c) => [c.name, c] as const))('%s: with a writer, read as a stream', async (_name, c) => {
    const h = await server();
    const dir = folder();
    const f = fifo(dir, c.file ?? 'pipe');
    writer(f, c.content);
    const r = await execa(process.execPath, [BIN, ...c.args(f, dir, h)], { reject: false, extendEnv: false, env: env(h), timeout: 20_000 });
    expect(r.timedOut, 'it waited on the FIFO').toBe(false);
    c.check({ exitCode: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) }, h);
  });

  it('the shell\'s <(…) is a FIFO with a writer: read as a stream', async () => {
    const h = await server();
    const script = `"${process.execPath}" "${BIN}" api POST /agents --input <(printf '{"name":"Substituted"}') --yes`;
    const r = await execa('bash', ['-c', script], { reject: false, extendEnv: false, env: env(h), timeout: 20_000 });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(JSON.parse(h.requests.find((s) => s.line === 'POST /agents')!.body)).toEqual({ name: 'Substituted' });
  });

  it('"-" still reads standard input', async () => {
    const h = await server();
    const r = await execa(process.execPath, [BIN, 'api', 'POST', '/agents', '--input', '-', '--yes'], { reject: false, extendEnv: false, env: env(h), input: '{"name":"Stdin"}', timeout: 20_000 });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(JSON.parse(h.requests.find((s) => s.line === 'POST /agents')!.body)).toEqual({ name: 'Stdin' });
  });

  it.each([
    ['api --input', (f: string) => ['api', 'POST', '/agents', '--input', f, '--yes']],
    ['agent create --file', (f: string) => ['agent', 'create', '--file', f]],
    ['events reconcile --log', (f: string) => ['events', 'reconcile', '--log', f, '--since', '1h']],
  ])('%s: Ctrl-C (and TERM) end a read that a writer keeps open, with exit 130 and nothing sent', async (_name, args) => {
    const h = await server();
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const dir = folder();
      const f = fifo(dir, 'pipe');
      writer(f, '{"name":', true);
      const child = execa(process.execPath, [BIN, ...args(f)], { reject: false, extendEnv: false, env: env(h), timeout: 20_000 });
      // Give it time to open the FIFO and read what is there; then the writer says nothing more.
      await new Promise((r) => setTimeout(r, 1500));
      child.kill(signal);
      const r = await child;
      expect(r.timedOut, `${signal} was ignored`).toBe(false);
      expect(r.exitCode, String(r.stderr)).toBe(130);
    }
    expect(h.requests.filter((s) => s.line.startsWith('POST'))).toEqual([]);
  });

  it('listen --log refuses a FIFO as the log it appends to (and reads back)', async () => {
    const h = await server();
    const dir = folder();
    const f = fifo(dir, 'events.jsonl');
    writeFileSync(join(dir, 'secret'), SECRET);
    const listen = await execa(process.execPath, [BIN, 'listen', '--port', '0', '--log', f, '--secret-file', join(dir, 'secret')], { reject: false, extendEnv: false, env: env(h), timeout: 20_000 });
    expect(listen.timedOut).toBe(false);
    expect(listen.exitCode, String(listen.stderr)).toBe(2);
    expect(listen.stderr).toMatch(/events\.jsonl as the log file: it is not a regular file/);
  });
});
