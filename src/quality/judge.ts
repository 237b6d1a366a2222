/**
 * One run of a `judge` rule: the user's command, in a shell, with the call's JSON on
 * stdin; exit 0 passes, 1 fails, the first lines of stdout are the reason.
 *
 * A rules file is code: a judge runs whatever its command says. So each judge starts in
 * a process group of its own and that whole group is ended: at its timeout (TERM, then
 * KILL after a grace for a judge that ignores TERM), on Ctrl-C or TERM of voicectl, and
 * when the judge exits (what it left running in the background goes with it). The run
 * is over when the judge exits or is killed, not when its pipes close: a grandchild
 * that keeps stdout open cannot hold `calls check`. Nothing of voicectl's own
 * environment (VOICECTL_API_KEY, VOICECTL_WEBHOOK_SECRET, every VOICECTL_ variable)
 * reaches it, only VOICECTL_JUDGE_RUN and VOICECTL_RULE_ID.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Context, Env } from '../context.js';
import { InterruptedError, UsageError } from '../errors.js';
import type { Rule } from './rules.js';

/** How long a judge has to stop after TERM before its group is killed. */
export const TERM_GRACE_MS = 2000;
/** After the judge exits, how long its output may take to arrive before pipes held by an escaped process are let go. */
const DRAIN_MS = 500;
const KEEP = 4000;

export type JudgeRule = Extract<Rule, { kind: 'judge' }>;

/** The environment a judge sees: voicectl's own variables left out, the run's number and the rule's id added. */
export function judgeEnvironment(env: Env, run: number, ruleId: string): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries({ ...process.env, ...env })) {
    if (v !== undefined && !/^VOICECTL_/i.test(k)) out[k] = v;
  }
  return { ...out, VOICECTL_JUDGE_RUN: String(run), VOICECTL_RULE_ID: ruleId };
}

/** Process groups of judges still running: killed if voicectl exits while one is (an error, a second Ctrl-C). */
const live = new Set<number>();
let exitHook = false;

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone already.
  }
}

function track(pid: number): void {
  live.add(pid);
  if (!exitHook) {
    exitHook = true;
    process.on('exit', () => {
      for (const p of live) killGroup(p, 'SIGKILL');
    });
  }
}

export function runJudge(ctx: Context, rule: JudgeRule, call: unknown, run: number, cwd: string): Promise<{ pass: boolean; reason: string }> {
  if (ctx.signal.aborted) return Promise.reject(new InterruptedError());
  return new Promise((resolvePromise, reject) => {
    let child: ChildProcess;
    try {
      child = spawn(rule.command, { shell: true, cwd, detached: true, stdio: ['pipe', 'pipe', 'pipe'], env: judgeEnvironment(ctx.env, run, rule.id) });
    } catch (e) {
      reject(new UsageError(`Rule "${rule.id}": the judge "${rule.command}" could not start (${(e as Error).message}).`));
      return;
    }
    const pid = child.pid;
    if (pid !== undefined) track(pid);
    let out = '';
    let err = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => { if (out.length < KEEP) out += d; });
    child.stderr!.setEncoding('utf8').on('data', (d: string) => { if (err.length < KEEP) err += d; });
    child.stdout!.on('error', () => {});
    child.stderr!.on('error', () => {});

    let exited = false;
    let stoppedBy: 'timeout' | 'interrupt' | undefined;
    let killed = false;
    let escalation: NodeJS.Timeout | undefined;
    const stopGroup = (why: 'timeout' | 'interrupt') => {
      if (exited || stoppedBy || pid === undefined) return;
      stoppedBy = why;
      killGroup(pid, 'SIGTERM');
      escalation = setTimeout(() => {
        killed = true;
        killGroup(pid, 'SIGKILL');
      }, TERM_GRACE_MS);
    };
    const timer = setTimeout(() => stopGroup('timeout'), rule.timeoutSeconds * 1000);
    // Ctrl-C (or TERM) of voicectl stops the judge's whole group too: it is not in the terminal's group.
    const onAbort = () => stopGroup('interrupt');
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    const cleanUp = () => {
      clearTimeout(timer);
      clearTimeout(escalation);
      ctx.signal.removeEventListener('abort', onAbort);
      if (pid !== undefined) live.delete(pid);
    };

    child.stdin!.on('error', () => {});
    child.stdin!.end(JSON.stringify(call));
    child.on('error', (e) => {
      if (exited) return;
      exited = true;
      cleanUp();
      reject(new UsageError(`Rule "${rule.id}": the judge "${rule.command}" could not start (${e.message}).`));
    });
    child.on('exit', (code, signal) => {
      if (exited) return;
      exited = true;
      // What the judge left running ends with it, and with it the pipes it held.
      if (pid !== undefined) killGroup(pid, 'SIGKILL');
      cleanUp();
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        clearTimeout(drain);
        child.stdout!.destroy();
        child.stderr!.destroy();
        if (stoppedBy === 'interrupt') {
          reject(new InterruptedError());
          return;
        }
        const reason = out.trim().split('\n').slice(0, 3).join(' ').slice(0, 300);
        const said = err.trim() ? `: ${err.trim().split('\n')[0]!.slice(0, 200)}` : '';
        if (stoppedBy === 'timeout') {
          resolvePromise({ pass: false, reason: `the judge took over ${rule.timeoutSeconds}s and was stopped${killed ? ` (it ignored SIGTERM and was killed ${TERM_GRACE_MS / 1000}s later)` : ''}${said}` });
        } else if (code === 0) resolvePromise({ pass: true, reason });
        else if (code === 1) resolvePromise({ pass: false, reason });
        else resolvePromise({ pass: false, reason: `the judge ${signal ? `was stopped (${signal})` : `exited ${code}`}${said}` });
      };
      // Its last output may still be in the pipes; a process that left the group may hold them open, so not forever.
      const drain = setTimeout(finish, DRAIN_MS);
      child.once('close', finish);
    });
  });
}
