/** At a terminal, apply asks before sending again a create an earlier run never heard back from. */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { tempDir } from '../../helpers/temp.js';
import { run } from '../../helpers/run.js';
import { sharedHarness } from '../../helpers/cli.js';
import { writes } from '../../e2e/gitops-helpers.js';

describe('a create whose answer never came, at a terminal', () => {
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

  /** apply on the folder at a terminal, a person typing these answers. */
  const applyAnswering = (answers: Array<[string, string]>) => run(['apply', folder.dir], { env: env(), tty: true, answers });

  describe('apply with a create left pending, at a terminal', () => {
    it('no sends nothing and says what to do', async () => {
      pendingFolder();
      const before = posts();
      const r = await applyAnswering([['Send them again?', 'n']]);
      expect(plain(r.stderr)).toContain('create agent late ("Late"): its earlier create was never answered');
      expect(r.exitCode).toBe(2);
      expect(plain(r.stderr)).toContain('--resend-pending');
      expect(posts()).toBe(before);
    });

    it('yes sends it once, after the usual question', async () => {
      pendingFolder();
      const before = posts();
      const r = await applyAnswering([['Send them again?', 'y'], ['Apply these changes to the account?', 'y']]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(posts()).toBe(before + 1);
    });
  });
});

describe('webhook endpoints', () => {
  /** Webhook endpoints as code: secrets stay out of the files, pull writes what the service lists. */
  const h = sharedHarness({ allowLocalWebhooks: true });

  describe('webhook endpoints in the files', () => {
    it('refuses --secrets-out inside the folder before sending anything', async () => {
      const dir = join(h.dir, 'acct');
      mkdirSync(dir);
      writeFileSync(join(dir, 'voicectl.yaml'), 'version: 1\nwebhooks:\n  crm:\n    url: http://127.0.0.1:9/hooks\n');
      const before = h.sandbox.requests.length;
      const r = await h.run(['apply', dir, '--yes', '--secrets-out', join(dir, 'secrets.json')]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain('secrets never go there');
      expect(h.sandbox.requests.length).toBe(before);
    });

    it('writes a new endpoint\'s secret to --secrets-out (mode 600), disables it when the files say so, and pull writes it back without the secret', async () => {
      const dir = join(h.dir, 'acct');
      writeFileSync(join(dir, 'voicectl.yaml'), 'version: 1\nwebhooks:\n  crm:\n    url: http://127.0.0.1:9/hooks\n    events: [call.ended, campaign.completed]\n    enabled: false\n');
      const secrets = join(h.dir, 'secrets.json');
      const before = h.sandbox.requests.length;
      const r = await h.run(['apply', dir, '--yes', '--secrets-out', secrets]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toContain(`signing secret of webhook crm written to ${secrets}`);
      const sent = writes(h.sandbox.requests.slice(before));
      expect(sent.map((q) => [q.method, q.body])).toEqual([
        ['POST', { url: 'http://127.0.0.1:9/hooks', events: ['call.ended', 'campaign.completed'] }],
        ['PATCH', { enabled: false }],
      ]);
      const saved = JSON.parse(readFileSync(secrets, 'utf8'));
      expect(saved.crm.secret).toMatch(/^whsec_/);
      expect(statSync(secrets).mode & 0o777).toBe(0o600);

      const again = h.sandbox.requests.length;
      expect((await h.run(['apply', dir, '--yes'])).exitCode).toBe(0);
      expect(writes(h.sandbox.requests.slice(again))).toEqual([]);

      const pulled = join(h.dir, 'pulled');
      expect((await h.run(['pull', pulled])).exitCode).toBe(0);
      const yaml = readFileSync(join(pulled, 'voicectl.yaml'), 'utf8');
      expect(yaml).toContain('url: http://127.0.0.1:9/hooks');
      expect(yaml).toContain('enabled: false');
      expect(yaml).not.toContain('whsec_');
      expect((await h.run(['plan', pulled, '--check'])).exitCode).toBe(0);
    });
  });
});
