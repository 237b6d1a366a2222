/**
 * `voicectl mcp` and file arguments that try to leave the folder the server runs in: an
 * absolute path, `../`, a symbolic link inside the folder that leads out (to a file or
 * through a folder), a hidden file such as `.env`, and %-encoded dots. A transcript the
 * model reads can ask for any of these. Every tool that takes a path refuses each one
 * before any command runs: nothing of the file reaches the answer, nothing is sent.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TOOLS } from '../../src/mcp/tools.js';
import { clientFor, givenAgent, givenFinishedCampaign } from '../helpers/given.js';
import { mcpForFile, textOf } from '../mcp/client.js';

const SECRET = 'AWS_SECRET_ACCESS_KEY=AKIAsecretFROMoutside';
const INSIDE_SECRET = 'VOICECTL_API_KEY=insideDotEnvSecret';
const LEADS = 'name,phone\nAsha,+91 98123 45670\n';

let campaignId = '';
let agentName = 'Sales desk';
const w = mcpForFile({
  prefix: 'voicectl-mcp-paths-',
  flags: ['--allow-write'],
  given: async (h, outer) => {
    // outer/ holds what must never be read; the server runs in outer/srv.
    writeFileSync(join(outer, '.env'), `${SECRET}\n`);
    writeFileSync(join(outer, 'secret.csv'), `phone,name\n+919812345670,${SECRET}\n`);
    writeFileSync(join(outer, 'secret.txt'), `${SECRET}\n`);
    mkdirSync(join(outer, 'account'));
    writeFileSync(join(outer, 'account', 'voicectl.yaml'), 'agents:\n  - name: Outside\n    voice: Ananya\n    greeting: Hi\n    call_purpose: x\n    prompt: x\n');
    const srv = join(outer, 'srv');
    mkdirSync(join(srv, 'docs'), { recursive: true });
    writeFileSync(join(srv, '.env'), `${INSIDE_SECRET}\n`);
    writeFileSync(join(srv, 'leads.csv'), LEADS);
    writeFileSync(join(srv, 'docs', 'policy.txt'), 'Leave policy: 20 days a year.\n');
    symlinkSync(join(outer, 'secret.txt'), join(srv, 'docs', 'escape.txt'));
    symlinkSync('policy.txt', join(srv, 'docs', 'same-folder.txt'));
    symlinkSync('../secret.csv', join(srv, 'link.csv'));
    symlinkSync('.env', join(srv, 'dotenv.csv'));
    symlinkSync('..', join(srv, 'up'));
    mkdirSync(join(srv, '%2e%2e'));
    const api = clientFor(h.sandbox);
    const agent = await givenAgent(api, { name: agentName });
    agentName = agent.name;
    campaignId = (await givenFinishedCampaign(api, { agentId: agent.id, contacts: 2, name: 'Done' })).id;
  },
  cwd: 'srv',
});

const call = (name: string, args: Record<string, unknown>) => w.mcp.client.callTool({ name, arguments: args }) as Promise<any>;

/** The hostile paths, each with the words its refusal must hold. */
const HOSTILE: Array<[string, () => string, RegExp]> = [
  ['absolute path outside', () => join(w.dir, 'secret.csv'), /outside the folder/],
  ['/etc/passwd', () => '/etc/passwd', /outside the folder/],
  ['../', () => '../secret.csv', /outside the folder/],
  ['../ after a folder', () => 'docs/../../secret.csv', /outside the folder/],
  ['../.env', () => '../.env', /hidden/],
  ['.env inside', () => '.env', /hidden/],
  ['./.env', () => './.env', /hidden/],
  ['a link to a file outside', () => 'link.csv', /outside the folder through a symbolic link/],
  ['a link to .env inside', () => 'dotenv.csv', /hidden/],
  ['a folder link that leads up', () => 'up/secret.csv', /outside the folder through a symbolic link/],
  ['%-encoded dots', () => '%2e%2e/secret.csv', /no such file/],
  ['%-encoded slash', () => '..%2fsecret.csv', /hidden/],
  ['%-encoded dots after a folder', () => 'docs/%2e%2e%2f%2e%2e%2fsecret.csv', /no such file/],
  ['a NUL byte', () => 'leads.csv\u0000../../secret.csv', /NUL/],
];

/** Every tool that takes a path, with arguments that put the path in each of its path arguments. */
const CALLS: Record<string, Array<(p: string) => Record<string, unknown>>> = {
  contacts_validate: [(p) => ({ path: p })],
  plan: [(p) => ({ dir: p })],
  campaign_run_forecast: [(p) => ({ name: 'F', agent: agentName, csv: p }), (p) => ({ name: 'F', agent: agentName, contacts: p }), (p) => ({ name: 'F', agent: agentName, csv: 'leads.csv', exclude: ['leads.csv', p] }), (p) => ({ name: 'F', agent: agentName, csv: 'leads.csv', rate_card: p })],
  campaign_create: [(p) => ({ name: 'X', agent: agentName, csv: p }), (p) => ({ name: 'X', agent: agentName, contacts: p }), (p) => ({ name: 'X', agent: agentName, csv: 'leads.csv', exclude: [p] })],
  campaign_redial: [(p) => ({ campaign_id: campaignId, exclude: [p] })],
  kb_upload: [(p) => ({ paths: [p] }), (p) => ({ paths: ['docs/policy.txt', p], folder: 'x' })],
};

describe('MCP tools refuse paths outside the folder they were started in', () => {
  it('every tool with a path argument is in this set, and declares its paths', () => {
    const PATHLIKE = /^(path|paths|dir|csv|contacts|exclude|file|files|folder_path|rate_card)$/;
    for (const tool of TOOLS) {
      const named = Object.keys(tool.input).filter((k) => PATHLIKE.test(k));
      expect([...(tool.paths ?? [])].sort(), tool.name).toEqual(named.sort());
    }
    expect(Object.keys(CALLS).sort()).toEqual(TOOLS.filter((t) => t.paths?.length).map((t) => t.name).sort());
  });

  for (const [tool, variants] of Object.entries(CALLS)) {
    it(`${tool}: absolute, ../, symbolic links, .env, %-tricks and NUL are refused, nothing read or sent`, async () => {
      for (const [label, path, why] of HOSTILE) {
        for (const args of variants) {
          const before = w.h.sandbox.requests.length;
          const r = await call(tool, args(path()));
          const text = textOf(r);
          const what = `${tool} ${label} ${JSON.stringify(args(path()))}: ${text}`;
          expect(r.isError, what).toBe(true);
          expect(text, what).toMatch(why);
          expect(text, what).toContain('exit code 2');
          expect(JSON.stringify(r), what).not.toContain('AKIAsecret');
          expect(JSON.stringify(r), what).not.toContain('insideDotEnvSecret');
          expect(JSON.stringify(r), what).not.toContain('Outside');
          // Refused before any command ran: not even a read reached the service.
          expect(w.h.sandbox.requests.length, what).toBe(before);
        }
      }
    });
  }

  it('paths inside the folder still work, links that stay inside included', async () => {
    const ok = await call('contacts_validate', { path: 'leads.csv' });
    expect(ok.isError, textOf(ok)).toBeFalsy();
    expect(ok.structuredContent.total_rows).toBe(1);
    const abs = await call('contacts_validate', { path: join(w.dir, 'srv', 'docs', '..', 'leads.csv') });
    expect(abs.isError, textOf(abs)).toBeFalsy();
    const linked = await call('kb_upload', { paths: ['docs/same-folder.txt'], folder: 'inside' });
    expect(linked.isError, textOf(linked)).toBeFalsy();
  });

  it('kb_upload of a folder leaves out a link in it that leads outside, and uploads the rest', async () => {
    const r = await call('kb_upload', { paths: ['docs'], folder: 'walked' });
    expect(r.isError, textOf(r)).toBeFalsy();
    const answer = JSON.stringify(r);
    expect(answer).not.toContain('AKIAsecret');
    expect(answer).toContain('walked/policy.txt');
    expect(answer).not.toContain('walked/escape.txt');
    const listed = await w.h.run(['kb', 'list', '--folder', 'walked', '--json']);
    expect(listed.stdout).toContain('policy.txt');
    expect(listed.stdout).not.toContain('escape.txt');
  });
});
