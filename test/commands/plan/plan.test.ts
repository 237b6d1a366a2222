/**
 * The account file keeps its promises: a renamed handle is a move, not a second agent;
 * names stay unique; values the service would refuse are caught by plan; and --check
 * notices what was removed from the files.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../../helpers/cli.js';
import { givenAgent } from '../../helpers/given.js';
import { tempDir, type TempDir } from '../../helpers/temp.js';
import { agents, editYaml, writes } from '../../e2e/gitops-helpers.js';

let h: Harness | undefined;
let tmp: TempDir | undefined;
// A fresh account for each test: what one test renames, the next does not see.
beforeEach(async () => {
  await h?.close();
  tmp?.remove();
  h = await harness({ allowLocalWebhooks: true });
  tmp = tempDir();
});
afterAll(async () => {
  await h?.close();
  tmp?.remove();
});

const lockOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'voicectl.lock.json'), 'utf8'));

async function newAgent(name: string, prompt = 'Be brief.'): Promise<string> {
  return (await givenAgent(h!.api, { name, voice_name: 'Priya', greeting: 'Hi', call_purpose: 'Test', prompt, tools: [] })).id as string;
}

/** Pulls the account and returns the handle pull gave the agent named `name`. */
async function pulled(name: string): Promise<string> {
  const r = await h!.run(['pull', tmp!.dir]);
  expect(r.exitCode, r.stderr).toBe(0);
  const [handle] = Object.entries(lockOf(tmp!.dir).agents as Record<string, { name: string }>).find(([, a]) => a.name === name)!;
  return handle;
}

function renameHandle(section: 'agents' | 'webhooks', from: string, to: string, change?: (entry: any) => void): void {
  editYaml(tmp!.dir, (doc) => {
    const entry = doc.getIn([section, from]) as any;
    doc.deleteIn([section, from]);
    change?.(entry);
    doc.setIn([section, to], entry);
  });
}

describe('a renamed handle', () => {
  it('is a move: the lock entry is renamed, nothing is sent, one agent remains', async () => {
    const id = await newAgent('Renamed desk');
    const handle = await pulled('Renamed desk');
    renameHandle('agents', handle, 'front-desk');
    const plan = await h!.run(['plan', tmp!.dir, '--check']);
    expect(plan.exitCode, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toContain(`rename handle agents.${handle} → agents.front-desk in the lock (recognised by the name "Renamed desk"; nothing is sent)`);
    const before = h!.sandbox.requests.length;
    const r = await h!.run(['apply', tmp!.dir, '--yes', '--prune']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(writes(h!.sandbox.requests.slice(before))).toEqual([]);
    expect((await agents(h!.api)).filter((a) => a.name === 'Renamed desk').map((a) => a.id)).toEqual([id]);
    const lock = lockOf(tmp!.dir);
    expect(lock.agents['front-desk'].id).toBe(id);
    expect(lock.agents[handle]).toBeUndefined();
    expect((await h!.run(['plan', tmp!.dir])).stdout).toContain('No changes');
  });

  it('with the name changed too, is recognised by its fields: a move and one PATCH of the name', async () => {
    const id = await newAgent('Old name', 'A prompt only this agent has.');
    const handle = await pulled('Old name');
    renameHandle('agents', handle, 'new-handle', (entry) => entry.set('name', 'New name'));
    const before = h!.sandbox.requests.length;
    const r = await h!.run(['apply', tmp!.dir, '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(writes(h!.sandbox.requests.slice(before)).map((q) => `${q.method} ${q.path} ${JSON.stringify(q.body)}`)).toEqual([`PATCH /agents/${id} {"name":"New name"}`]);
    expect(lockOf(tmp!.dir).agents['new-handle']).toEqual({ id, name: 'New name' });
  });

  it('that could be either of two is refused before anything is sent, with what to do', async () => {
    await newAgent('Twin source', 'Shared prompt.');
    const handle = await pulled('Twin source');
    renameHandle('agents', handle, 'twin-a', (entry) => entry.set('name', 'Twin A'));
    editYaml(tmp!.dir, (doc) => {
      const copy = (doc.getIn(['agents', 'twin-a']) as any).clone();
      copy.set('name', 'Twin B');
      doc.setIn(['agents', 'twin-b'], copy);
    });
    const before = h!.sandbox.requests.length;
    const r = await h!.run(['apply', tmp!.dir, '--yes']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`look like the renamed handle of ${handle}`);
    expect(r.stderr).toContain('voicectl.lock.json');
    expect(writes(h!.sandbox.requests.slice(before))).toEqual([]);
  });

  it('of a webhook endpoint is recognised by its URL', async () => {
    writeFileSync(join(tmp!.dir, 'voicectl.yaml'), 'version: 1\nwebhooks:\n  crm:\n    url: http://127.0.0.1:9/hooks\n');
    expect((await h!.run(['apply', tmp!.dir, '--yes'])).exitCode).toBe(0);
    const id = lockOf(tmp!.dir).webhooks.crm.id;
    renameHandle('webhooks', 'crm', 'sales-crm');
    const before = h!.sandbox.requests.length;
    const r = await h!.run(['apply', tmp!.dir, '--yes', '--prune']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(writes(h!.sandbox.requests.slice(before))).toEqual([]);
    expect(lockOf(tmp!.dir).webhooks['sales-crm'].id).toBe(id);
  });
});

describe('names, voices, directions and statuses', () => {
  it('a rename onto another agent\'s name is an error naming both', async () => {
    const other = await newAgent('Taken name');
    await newAgent('Mine');
    const handle = await pulled('Mine');
    // The other agent leaves the files but stays in the account.
    const otherHandle = Object.entries(lockOf(tmp!.dir).agents as Record<string, { id: string }>).find(([, a]) => a.id === other)![0];
    editYaml(tmp!.dir, (doc) => {
      doc.deleteIn(['agents', otherHandle]);
      doc.setIn(['agents', handle, 'name'], 'Taken name');
    });
    const before = h!.sandbox.requests.length;
    const r = await h!.run(['plan', tmp!.dir]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`agents.${otherHandle} and agents.${handle} would all be named "Taken name"`);
    expect(writes(h!.sandbox.requests.slice(before))).toEqual([]);
  });

  it('an unknown voice and a direction the spec does not name are errors; an unknown status is a warning', async () => {
    const agentYaml = (extra: string) => `version: 1\nagents:\n  x:\n    name: X\n    greeting: Hi\n    call_purpose: Test\n    prompt: Short.\n    tools: []\n${extra}`;
    writeFileSync(join(tmp!.dir, 'voicectl.yaml'), agentYaml('    voice_name: Nobody\n'));
    const voice = await h!.run(['plan', tmp!.dir]);
    expect(voice.exitCode).toBe(2);
    expect(voice.stderr).toContain('agents.x.voice_name: "Nobody" is not in the service\'s voice list');

    writeFileSync(join(tmp!.dir, 'voicectl.yaml'), agentYaml('    voice_name: Priya\n    direction: sideways\n'));
    const direction = await h!.run(['plan', tmp!.dir]);
    expect(direction.exitCode).toBe(2);
    expect(direction.stderr).toContain('agents.x.direction: must be outbound or inbound, the values the spec names; got "sideways" (line 10, column 5)');

    writeFileSync(join(tmp!.dir, 'voicectl.yaml'), agentYaml('    voice_name: priya\n    status: snoozing\n'));
    const status = await h!.run(['plan', tmp!.dir]);
    expect(status.exitCode, status.stderr).toBe(0);
    expect(status.stderr).toContain('agents.x.status: "snoozing" is not a status voicectl knows');
  });
});

describe('plan --check', () => {
  it('exits 6 when an agent the files managed was removed from them, saying --prune would delete it', async () => {
    await newAgent('Leaving');
    const handle = await pulled('Leaving');
    expect((await h!.run(['plan', tmp!.dir, '--check'])).exitCode).toBe(0);
    editYaml(tmp!.dir, (doc) => doc.deleteIn(['agents', handle]));
    const r = await h!.run(['plan', tmp!.dir, '--check']);
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toContain(`agent ${handle}`);
    expect(r.stderr).toContain('--prune` would delete them');
    const json = await h!.run(['plan', tmp!.dir, '--json']);
    expect(JSON.parse(json.stdout).left_in_account).toEqual([`agent ${handle}`]);
  });
});
