/** At a terminal, apply asks before sending again a create an earlier run never heard back from. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { tempDir, waitFor } from '../config/harness.js';
import { run } from '../helpers/run.js';

let sandbox: Sandbox;
const cfg = tempDir();
const folder = tempDir('voicectl-acct-');

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, timeScale: 600, seed: 3 });
});
afterAll(async () => {
  await sandbox.close();
  cfg.remove();
  folder.remove();
});

function plain(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\s+/g, ' ');
}

const env = () => ({ VOICECTL_BASE_URL: sandbox.url, VOICECTL_API_KEY: sandbox.apiKey, VOICECTL_CONFIG_DIR: cfg.dir });
const posts = () => sandbox.requests.filter((r) => r.method === 'POST' && r.path === '/agents').length;

function pendingFolder(): void {
  writeFileSync(join(folder.dir, 'voicectl.yaml'), 'version: 1\nagents:\n  late:\n    name: Late\n    voice_name: Priya\n    greeting: Hi\n    call_purpose: x\n    prompt: y\n    tools: []\n');
  writeFileSync(join(folder.dir, 'voicectl.lock.json'), JSON.stringify({ version: 1, base_url: sandbox.url, agents: { late: { pending: 'create', name: 'Late' } }, documents: {}, webhooks: {} }));
}

describe('apply with a create left pending, at a terminal', () => {
  it('no sends nothing and says what to do', async () => {
    pendingFolder();
    const before = posts();
    const r = await run(['apply', folder.dir], {
      env: env(),
      tty: true,
      answer: async ({ stdin, stderr }) => {
        await waitFor(stderr, 'Send them again?');
        stdin.write('n\n');
      },
    });
    expect(plain(r.stderr)).toContain('create agent late ("Late"): its earlier create was never answered');
    expect(r.exitCode).toBe(2);
    expect(plain(r.stderr)).toContain('--resend-pending');
    expect(posts()).toBe(before);
  });

  it('yes sends it once, after the usual question', async () => {
    pendingFolder();
    const before = posts();
    const r = await run(['apply', folder.dir], {
      env: env(),
      tty: true,
      answer: async ({ stdin, stderr }) => {
        await waitFor(stderr, 'Send them again?');
        stdin.write('y\n');
        await waitFor(stderr, 'Apply these changes to the account?');
        stdin.write('y\n');
      },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(posts()).toBe(before + 1);
  });
});
