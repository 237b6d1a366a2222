/**
 * `judge` rules whose command will not simply exit: one that sleeps far past its timeout,
 * one that exits at once but leaves a background child holding stdout, one that ignores
 * TERM, and a Ctrl-C to voicectl while a judge runs. `calls check` must end in each case
 * with nothing of the judge left running, and the judge must not see voicectl's secrets.
 * Offline (--from-file), with the built binary started as a real process.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, baseEnv, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp.js';

const folder = tempDirs('voicectl-judge-');

const CALL = { call_id: 'call_1', status: 'completed', outcome: 'requirements_gathered', duration_seconds: 30, transcript: [{ role: 'agent', text: 'Hello, I am an AI assistant.' }] };

/** A folder with the call, a rules file whose one rule is the judge, and the judge script. */
function given(script: string, timeoutSeconds = 1, command = './judge.sh'): string {
  const dir = folder();
  writeFileSync(join(dir, 'calls.jsonl'), `${JSON.stringify(CALL)}\n`);
  writeFileSync(join(dir, 'judge.sh'), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  writeFileSync(join(dir, 'rules.yaml'), `rules:\n  - {id: polite, kind: judge, severity: error, command: ${JSON.stringify(command)}, timeout_seconds: ${timeoutSeconds}}\n`);
  return dir;
}

const env = (dir: string) => ({ ...baseEnv(dir), VOICECTL_API_KEY: 'vk_live_judge_must_not_see', VOICECTL_WEBHOOK_SECRET: 'whsec_judge_must_not_see', VOICECTL_PROFILE: 'default' });
const args = (dir: string) => ['calls', 'check', '--rules', join(dir, 'rules.yaml'), '--from-file', join(dir, 'calls.jsonl'), '--json'];

/** Whether a process is still running (a zombie waiting for its parent to reap it is not). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

function pidIn(file: string): number {
  return Number(readFileSync(file, 'utf8').trim());
}

async function until(what: () => boolean): Promise<void> {
  while (!what()) await new Promise((r) => setTimeout(r, 50));
}

/** A check that never ends is a failure of this test, not a hang of the suite. */
const HANG = 45_000;

function verdict(stdout: string): { verdict: string; message?: string } {
  const json = JSON.parse(stdout);
  return json.results.find((r: { rule: string }) => r.rule === 'polite');
}

describe('a judge that does not simply exit', () => {
  // Each judge leaves a child (its pid in child.pid); the check must end with the verdict and the child gone.
  const cases: Array<{ title: string; script: string; timeout: number; command?: string; exitCode: number; verdict: object }> = [
    {
      title: 'sleeps far past its timeout: the check ends, the judge fails, its child is gone',
      script: 'sleep 1000 &\necho $! > child.pid\nwait', timeout: 1,
      exitCode: 1, verdict: { verdict: 'fail', message: expect.stringContaining('took over 1s and was stopped') },
    },
    {
      title: 'exits at once but leaves a background child holding stdout: its verdict counts, the child is ended',
      script: 'sleep 1000 &\necho $! > child.pid\necho "polite enough"\nexit 0', timeout: 600,
      exitCode: 0, verdict: { verdict: 'pass' },
    },
    {
      // The shell that runs the command ignores TERM too, and so does all it starts.
      title: 'ignores TERM: at its timeout the group is killed',
      script: 'sleep 1000 &\necho $! > child.pid\nwhile :; do wait; done', timeout: 1, command: 'trap "" TERM; ./judge.sh',
      exitCode: 1, verdict: { verdict: 'fail', message: expect.stringContaining('ignored SIGTERM and was killed') },
    },
  ];
  for (const c of cases) {
    it(c.title, async () => {
      const dir = given(c.script, c.timeout, c.command);
      const r = await runCli(args(dir), env(dir), { timeout: HANG, cwd: dir });
      expect(r.exitCode, r.stderr).toBe(c.exitCode);
      expect(verdict(r.stdout)).toMatchObject(c.verdict);
      await until(() => !running(pidIn(join(dir, 'child.pid'))));
    }, 60_000);
  }

  it('SIGINT to voicectl alone (a CI cancel) ends the check and the judge\'s whole group', async () => {
    const dir = given('sleep 1000 &\necho $! > child.pid\nwait', 600);
    const child = spawn(process.execPath, [BIN, ...args(dir)], { cwd: dir, env: env(dir), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const guard = setTimeout(() => child.kill('SIGKILL'), HANG);
    await until(() => existsSync(join(dir, 'child.pid')) && readFileSync(join(dir, 'child.pid'), 'utf8').trim() !== '');
    child.kill('SIGINT');
    const code = await exited;
    clearTimeout(guard);
    expect(code, stderr).toBe(130);
    await until(() => !running(pidIn(join(dir, 'child.pid'))));
  }, 60_000);

  it('sees none of voicectl\'s own variables, only the run\'s number and the rule\'s id', async () => {
    const dir = given('env > judge-env.txt\nexit 0', 30);
    const r = await runCli(args(dir), env(dir), { timeout: HANG, cwd: dir });
    expect(r.exitCode, r.stderr).toBe(0);
    const seen = readFileSync(join(dir, 'judge-env.txt'), 'utf8');
    expect(seen).not.toContain('vk_live_judge_must_not_see');
    expect(seen).not.toContain('whsec_judge_must_not_see');
    expect(seen.split('\n').filter((l) => l.startsWith('VOICECTL_')).map((l) => l.split('=')[0]).sort()).toEqual(['VOICECTL_JUDGE_RUN', 'VOICECTL_RULE_ID']);
    expect(seen).toContain('PATH=');
  }, 60_000);
});
