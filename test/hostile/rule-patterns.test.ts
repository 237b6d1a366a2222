/**
 * A rule's pattern against what callers said: `(a+)+$` on a turn of forty `a`s and a `!`
 * backtracks for ages. Matching has a deadline: the call fails that rule with a message
 * that names the pattern and the turn, the check goes on, and Ctrl-C stops it.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, baseEnv, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp.js';
import { boundedShape, firstMatch, MatchTimeout } from '../../src/quality/match.js';

const folder = tempDirs('voicectl-patterns-');
const EVIL = `${'a'.repeat(40)}!`;
const HANG = 45_000;

function call(id: string, turns: Array<[string, string]>) {
  return { call_id: id, status: 'completed', outcome: 'requirements_gathered', duration_seconds: 30, transcript: turns.map(([role, text]) => ({ role, text })) };
}

describe('the shape check that lets plain patterns skip the deadline', () => {
  it('calls bounded only what has no quantifier, backreference or lookaround', () => {
    for (const s of ['I am an AI assistant', 'do not call|don\'t call', '100% (safe|sure)', 'मैं एक AI सहायक', '[a-z]\\.', '\\p{L}', 'a\\+b']) expect(boundedShape(s), s).toBe(true);
    for (const s of ['(a+)+$', 'a*', 'b?', 'x{2,}', '(a|b)\\1', '(?=a)', '(?<!a)b', '((a|b)c)', '\\k<n>']) expect(boundedShape(s), s).toBe(false);
  });
});

describe('a catastrophic pattern', () => {
  it('(a+)+$ against forty a\'s and a "!" is stopped at the deadline, naming the turn', () => {
    // A match before the bad text is found without reaching it.
    expect(firstMatch([/hello/iu, /(a+)+$/iu], ['hello', EVIL])).toEqual({ index: 0, pattern: 0 });
    expect(() => firstMatch([/hello/iu, /(a+)+$/iu], ['nothing here', EVIL])).toThrow(MatchTimeout);
    try {
      firstMatch([/hello/iu, /(a+)+$/iu], ['nothing here', EVIL]);
    } catch (err) {
      expect((err as MatchTimeout).index).toBe(1);
      expect((err as MatchTimeout).pattern.source).toBe('(a+)+$');
    }
  });

  it('calls check: each rule kind with the pattern fails the call with the rule, call and turn named, and the check ends', async () => {
    const dir = folder();
    const calls = [
      call('call_evil', [['agent', EVIL], ['user', EVIL], ['agent', 'ok']]),
      call('call_plain', [['agent', 'Hello, I am an AI assistant.'], ['user', 'fine']]),
    ];
    writeFileSync(join(dir, 'calls.jsonl'), calls.map((c) => JSON.stringify(c)).join('\n'));
    writeFileSync(join(dir, 'rules.yaml'), `rules:
  - {id: greet, kind: first_agent_turn_matches, severity: error, pattern: "(a+)+$|AI assistant"}
  - {id: never, kind: never_says, severity: error, role: any, patterns: ["(a+)+$"]}
  - {id: optout, kind: opt_out_honoured, severity: error, pattern: "(a+)+$"}
`);
    const r = await runCli(['calls', 'check', '--rules', join(dir, 'rules.yaml'), '--from-file', join(dir, 'calls.jsonl'), '--json'], baseEnv(dir), { timeout: HANG });
    expect(r.exitCode, r.stderr).toBe(1);
    const results = JSON.parse(r.stdout).results as Array<{ rule: string; call_id: string; verdict: string; message?: string }>;
    const of = (rule: string, id: string) => results.find((x) => x.rule === rule && x.call_id === id)!;
    for (const [rule, turn] of [['greet', 1], ['never', 1], ['optout', 2]] as const) {
      expect(of(rule, 'call_evil'), rule).toMatchObject({ verdict: 'fail', message: expect.stringContaining(`the pattern /(a+)+$`) });
      expect(of(rule, 'call_evil').message, rule).toContain(`on turn ${turn} and was stopped`);
    }
    // The plain call is judged as ever.
    expect(of('greet', 'call_plain').verdict).toBe('pass');
    expect(of('never', 'call_plain').verdict).toBe('pass');
  }, 60_000);

  it('Ctrl-C stops a check that is matching catastrophic patterns', async () => {
    const dir = folder();
    const calls = Array.from({ length: 200 }, (_, i) => call(`call_${i}`, [['user', EVIL]]));
    writeFileSync(join(dir, 'calls.jsonl'), calls.map((c) => JSON.stringify(c)).join('\n'));
    writeFileSync(join(dir, 'rules.yaml'), 'rules:\n  - {id: optout, kind: opt_out_honoured, severity: error, pattern: "(a+)+$"}\n');
    const child = spawn(process.execPath, [BIN, 'calls', 'check', '--rules', join(dir, 'rules.yaml'), '--from-file', join(dir, 'calls.jsonl'), '--concurrency', '1'], { env: baseEnv(dir), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const guard = setTimeout(() => child.kill('SIGKILL'), HANG);
    // 200 calls of a second each: well into the matching by now.
    await new Promise((r) => setTimeout(r, 3000));
    child.kill('SIGINT');
    const code = await exited;
    clearTimeout(guard);
    expect(code, stderr).toBe(130);
  }, 60_000);
});
