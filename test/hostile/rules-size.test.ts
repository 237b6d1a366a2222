/**
 * Rules files far larger than any real one: 200,000 rules (a generated file gone wrong)
 * are refused before the YAML is parsed, never "Maximum call stack size exceeded", and a
 * list over the stated count is refused with exit 2; a list at the count is checked.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp.js';
import { MAX_RULES, MAX_RULES_BYTES } from '../../src/quality/rules.js';

const folder = tempDirs('voicectl-rules-size-');

function given(rules: number): { dir: string; args: string[] } {
  const dir = folder();
  writeFileSync(join(dir, 'calls.jsonl'), `${JSON.stringify({ call_id: 'c1', status: 'completed', duration_seconds: 3, transcript: [{ role: 'agent', text: 'hi' }] })}\n`);
  const lines = ['rules:'];
  for (let i = 0; i < rules; i++) lines.push(`  - {id: r${i}, kind: max_duration, seconds: 100}`);
  writeFileSync(join(dir, 'rules.yaml'), `${lines.join('\n')}\n`);
  return { dir, args: ['calls', 'check', '--rules', join(dir, 'rules.yaml'), '--from-file', join(dir, 'calls.jsonl'), '--json'] };
}

describe('rules files past the stated size', () => {
  it('200,000 rules: exit 2 naming the size limit, before any parsing', async () => {
    const { dir, args } = given(200_000);
    const r = await runCli(args, baseEnv(dir), { timeout: 60_000 });
    expect(r.stderr).not.toContain('Maximum call stack');
    expect(r.stderr).toContain(`over the ${MAX_RULES_BYTES / 1024 / 1024} MB a rules file may be`);
    expect(r.exitCode).toBe(2);
  }, 90_000);

  it(`${MAX_RULES + 1} rules under the size limit: exit 2 naming the count`, async () => {
    const { dir, args } = given(MAX_RULES + 1);
    const r = await runCli(args, baseEnv(dir));
    expect(r.stderr).toContain(`rules holds ${MAX_RULES + 1} rules; at most ${MAX_RULES} are read`);
    expect(r.exitCode).toBe(2);
  }, 90_000);

  it(`${MAX_RULES} rules are checked`, async () => {
    const { dir, args } = given(MAX_RULES);
    const r = await runCli(args, baseEnv(dir));
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).rules).toHaveLength(MAX_RULES);
  }, 90_000);
});
