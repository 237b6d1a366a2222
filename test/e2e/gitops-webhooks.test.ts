/** Webhook endpoints as code: secrets stay out of the files, pull writes what the service lists. */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/cli.js';
import { tempDir, type TempDir } from '../helpers/temp.js';
import { writes } from './gitops-helpers.js';

let h: Harness;
let tmp: TempDir;
beforeAll(async () => {
  h = await harness({ allowLocalWebhooks: true });
  tmp = tempDir();
});
afterAll(async () => {
  await h.close();
  tmp.remove();
});

describe('webhook endpoints in the files', () => {
  it('refuses --secrets-out inside the folder before sending anything', async () => {
    const dir = join(tmp.dir, 'acct');
    mkdirSync(dir);
    writeFileSync(join(dir, 'voicectl.yaml'), 'version: 1\nwebhooks:\n  crm:\n    url: http://127.0.0.1:9/hooks\n');
    const before = h.sandbox.requests.length;
    const r = await h.run(['apply', dir, '--yes', '--secrets-out', join(dir, 'secrets.json')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('secrets never go there');
    expect(h.sandbox.requests.length).toBe(before);
  });

  it('writes a new endpoint\'s secret to --secrets-out (mode 600), disables it when the files say so, and pull writes it back without the secret', async () => {
    const dir = join(tmp.dir, 'acct');
    writeFileSync(join(dir, 'voicectl.yaml'), 'version: 1\nwebhooks:\n  crm:\n    url: http://127.0.0.1:9/hooks\n    events: [call.ended, campaign.completed]\n    enabled: false\n');
    const secrets = join(tmp.dir, 'secrets.json');
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

    const pulled = join(tmp.dir, 'pulled');
    expect((await h.run(['pull', pulled])).exitCode).toBe(0);
    const yaml = readFileSync(join(pulled, 'voicectl.yaml'), 'utf8');
    expect(yaml).toContain('url: http://127.0.0.1:9/hooks');
    expect(yaml).toContain('enabled: false');
    expect(yaml).not.toContain('whsec_');
    expect((await h.run(['plan', pulled, '--check'])).exitCode).toBe(0);
  });
});
