import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { run } from '../../helpers/run.js';

// In process (run(argv, ctx) with fake streams) against a sandbox on port 0.
let sandbox: Sandbox;
let configDir: string;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, timeScale: 600, seed: 11 });
  configDir = mkdtempSync(join(tmpdir(), 'voicectl-kb-agent-'));
});
afterAll(async () => {
  await sandbox.close();
  rmSync(configDir, { recursive: true, force: true });
});

const h = {
  get sandbox() {
    return sandbox;
  },
  async run(argv: string[]) {
    const r = await run(argv, { env: { VOICECTL_BASE_URL: sandbox.url, VOICECTL_API_KEY: sandbox.apiKey, VOICECTL_CONFIG_DIR: configDir, CI: 'true' } });
    return { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr };
  },
};

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const C = '33333333-3333-4333-8333-333333333333';

const patches = () => h.sandbox.requests.filter((r) => r.method === 'PATCH' && r.path.startsWith('/agents/'));

async function agentWith(kb: string[]): Promise<string> {
  const r = await h.run(['agent', 'create', '--name', `Docs ${kb.length}`, '--voice', 'Ananya', '--greeting', 'Hello!', '--call-purpose', 'Answer questions',
    '--prompt', 'Answer from the documents.', ...(kb.length ? ['--kb', kb.join(',')] : []), '--json']);
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout).id as string;
}

describe('agent update --kb-add / --kb-remove', () => {
  it('sends the whole new list, built from the agent\'s current one', async () => {
    const id = await agentWith([A]);
    const add = await h.run(['agent', 'update', id, '--kb-add', B, '--kb-add', `${C},${A}`, '--json']);
    expect(add.exitCode, add.stderr).toBe(0);
    expect(patches().at(-1)!.body).toEqual({ kb_item_ids: [A, B, C] });
    expect(JSON.parse(add.stdout).kb_item_ids).toEqual([A, B, C]);

    const remove = await h.run(['agent', 'update', id, '--kb-remove', `${A},${C}`, '--greeting', 'Hi again!']);
    expect(remove.exitCode, remove.stderr).toBe(0);
    expect(patches().at(-1)!.body).toEqual({ greeting: 'Hi again!', kb_item_ids: [B] });

    const both = await h.run(['agent', 'update', id, '--kb-add', A, '--kb-remove', B]);
    expect(both.exitCode).toBe(0);
    expect(patches().at(-1)!.body).toEqual({ kb_item_ids: [A] });
  });

  it('removing what is not attached warns; a change that changes nothing sends nothing', async () => {
    const id = await agentWith([A]);
    const before = patches().length;
    const r = await h.run(['agent', 'update', id, '--kb-remove', B, '--kb-add', A]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(`nothing to remove: ${B}`);
    expect(r.stderr).toContain('Nothing to change');
    expect(patches().length).toBe(before);
  });

  it('--kb with --kb-add or --kb-remove is exit 2 and sends nothing', async () => {
    const id = await agentWith([]);
    const before = patches().length;
    const r = await h.run(['agent', 'update', id, '--kb', A, '--kb-add', B]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--kb');
    const same = await h.run(['agent', 'update', id, '--kb-add', A, '--kb-remove', A]);
    expect(same.exitCode).toBe(2);
    expect(patches().length).toBe(before);
    // --kb still replaces the list on its own.
    const set = await h.run(['agent', 'update', id, '--kb', `${B},${C}`]);
    expect(set.exitCode).toBe(0);
    expect(patches().at(-1)!.body).toEqual({ kb_item_ids: [B, C] });
  });

  it('detaches documents from agents when a knowledge-base folder is deleted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'voicectl-kb-agent-'));
    try {
      writeFileSync(join(dir, 'menu.md'), 'Our menu has twelve dishes.');
      const up = await h.run(['kb', 'upload', join(dir, 'menu.md'), '--folder', 'restaurant', '--json']);
      const doc = JSON.parse(up.stdout)[0].id as string;
      const id = await agentWith([]);
      expect((await h.run(['agent', 'update', id, '--kb-add', doc])).exitCode).toBe(0);
      const folder = (JSON.parse((await h.run(['kb', 'list', '--json'])).stdout) as Array<{ id: string; name: string }>).find((i) => i.name === 'restaurant')!;
      expect((await h.run(['kb', 'delete', folder.id, '--yes'])).exitCode).toBe(0);
      const agent = JSON.parse((await h.run(['agent', 'get', id, '--json'])).stdout);
      expect(agent.kb_item_ids).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
