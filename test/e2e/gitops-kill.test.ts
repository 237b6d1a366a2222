/**
 * A killed apply (SIGKILL, no chance to clean up) converges when run again: the worst
 * moment is after the service created an agent and before voicectl heard of it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, harness, type Harness } from '../helpers/cli.js';
import { tempDir, type TempDir } from '../helpers/temp.js';
import { agents, OTHER_CHOICES, writes } from './gitops-helpers.js';

const FILES = `version: 1
agents:
${['one', 'two', 'three', 'four'].map((n) => `  ${n}:
    name: Agent ${n}
    voice_name: Priya
    greeting: Hello from ${n}
    call_purpose: Test
    prompt: Be brief.
    tools: []`).join('\n')}
`;

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe.each([
  ['the sandbox', undefined],
  ['a service making the other choices, with bare lists', { ...OTHER_CHOICES, listEnvelope: 'bare' as const }],
] as const)('a killed apply against %s', (_label, variant) => {
  let h: Harness;
  let tmp: TempDir;
  beforeAll(async () => {
    // Every answer waits 400 ms: the kill lands while the second agent's POST is answered.
    h = await harness({ latencyMs: 400, variant });
    tmp = tempDir();
  });
  afterAll(async () => {
    await h.close();
    tmp.remove();
  });

  it('converges when run again, with no agent created twice', async () => {
    writeFileSync(join(tmp.dir, 'voicectl.yaml'), FILES);
    const posts = () => h.sandbox.requests.filter((q) => q.method === 'POST' && q.path === '/agents').length;
    const child = execa(process.execPath, [BIN, 'apply', tmp.dir, '--yes'], { env: h.env, extendEnv: false, reject: false });
    await until(() => posts() >= 2, 'the second POST /agents');
    // The sandbox handles a request as soon as it has arrived and answers after the latency.
    await until(() => Object.keys(h.sandbox.world.org('org_sandbox').agents).length >= 2, 'the second agent to exist');
    child.kill('SIGKILL');
    const killed = await child;
    expect(killed.signal).toBe('SIGKILL');
    expect((await agents(h.api)).length).toBe(2);

    const before = h.sandbox.requests.length;
    const again = await h.run(['apply', tmp.dir, '--yes']);
    expect(again.exitCode, again.stderr).toBe(0);
    const sent = writes(h.sandbox.requests.slice(before)).map((q) => `${q.method} ${q.path}`);
    expect(sent).toEqual(['POST /agents', 'POST /agents']);
    const names = (await agents(h.api)).map((a) => a.name).sort();
    expect(names).toEqual(['Agent four', 'Agent one', 'Agent three', 'Agent two']);

    const plan = await h.run(['plan', tmp.dir, '--check']);
    expect(plan.exitCode, plan.stdout + plan.stderr).toBe(0);
  }, 60_000);
});
