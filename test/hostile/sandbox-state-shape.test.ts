/**
 * `voicectl sandbox --state FILE` with a file that is valid JSON of the wrong shape: it
 * is refused at start (exit 2) with the path of what is wrong, instead of loading and
 * then answering requests with 500s. A real saved state, full of data, still loads.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { StateFileError } from '../../src/sandbox/state.js';
import { stateProblem } from '../../src/sandbox/state-shape.js';
import { baseEnv, runCli } from '../helpers/cli.js';
import { tempDir, type TempDir } from '../helpers/temp.js';
import { clientFor, givenFinishedCampaign, ok } from '../helpers/given.js';

let dir: TempDir;
let good: any;

beforeAll(async () => {
  dir = tempDir();
  // A state with agents, a finished campaign, calls, scripts and a webhook endpoint.
  const file = join(dir.dir, 'good.json');
  const sb = await startSandbox({ port: 0, timeScale: 600, seed: 3, stateFile: file, allowLocalWebhooks: true });
  await givenFinishedCampaign(clientFor(sb), { contacts: 5 });
  await ok(clientFor(sb), 'POST', '/webhooks/endpoints', { url: 'http://127.0.0.1:9/hook' });
  await sb.close();
  good = JSON.parse(readFileSync(file, 'utf8'));
});
afterAll(() => dir.remove());

const clone = () => JSON.parse(JSON.stringify(good));
const first = <T>(rec: Record<string, T>): T => Object.values(rec)[0]!;

const broken: Array<[string, (s: any) => void, RegExp]> = [
  ['orgs is an object', (s) => { s.orgs = { a: 1 }; }, /orgs must be an array \(got an object\)/],
  ['a call\'s start_time is a number', (s) => { first<any>(s.orgs[0].calls).start_time = 12; }, /orgs\[0\]\.calls\["[^"]+"\]\.start_time must be a string \(got a number\)/],
  ['an agent\'s tools is a string', (s) => { first<any>(s.orgs[0].agents).tools = 'take_message'; }, /orgs\[0\]\.agents\["[^"]+"\]\.tools must be an array \(got a string\)/],
  ['a campaign status the sandbox does not know', (s) => { first<any>(s.orgs[0].campaigns).status = 'paused'; }, /\.status must be one of draft, running, completed \(got "paused"\)/],
  ['a contact without a phone number', (s) => { delete first<any>(s.orgs[0].campaigns).contacts[0].phone_number; }, /\.contacts\[0\]\.phone_number is missing/],
  ['an agent filed under another id', (s) => { const a = first<any>(s.orgs[0].agents); s.orgs[0].agents.other = a; }, /agents\["other"\]\.id must be its key/],
  ['an endpoint\'s enabled is a string', (s) => { first<any>(s.orgs[0].webhooks.endpoints).enabled = 'yes'; }, /webhooks\.endpoints\["[^"]+"\]\.enabled must be true or false/],
  ['secret missing', (s) => { delete s.secret; }, /secret is missing/],
  ['rng of the wrong length', (s) => { s.rng = [1, 2]; }, /rng must have 4 items/],
];

describe('the shape of a --state file', () => {
  it('a state the sandbox wrote passes', () => {
    expect(good.orgs[0].calls && Object.keys(good.orgs[0].calls).length).toBe(5);
    expect(stateProblem(good)).toBeUndefined();
  });

  for (const [name, breakIt, message] of broken) {
    it(`refuses: ${name}`, async () => {
      const s = clone();
      breakIt(s);
      const file = join(dir.dir, `bad-${name.replace(/\W+/g, '-')}.json`);
      writeFileSync(file, JSON.stringify(s));
      await expect(startSandbox({ port: 0, stateFile: file })).rejects.toThrow(StateFileError);
      await expect(startSandbox({ port: 0, stateFile: file })).rejects.toThrow(message);
    });
  }

  it('voicectl sandbox --state with a wrong shape exits 2 at start, naming the file and the field', async () => {
    const s = clone();
    first<any>(s.orgs[0].calls).start_time = 12;
    const file = join(dir.dir, 'bad-cli.json');
    writeFileSync(file, JSON.stringify(s));
    // Before the check, this sandbox started (and served 500s): the timeout would end it.
    const r = await runCli(['sandbox', '--port', '0', '--state', file], baseEnv(dir.dir), { timeout: 15_000 });
    expect(r.stderr).toContain(`the state file ${file} cannot be loaded: orgs[0].calls[`);
    expect(r.stderr).toContain('start_time must be a string (got a number)');
    expect(r.exitCode).toBe(2);
  });

  it('the good state still serves its data after a restart', async () => {
    const file = join(dir.dir, 'good-again.json');
    writeFileSync(file, JSON.stringify(good));
    const sb = await startSandbox({ port: 0, stateFile: file });
    try {
      const page = await ok<{ total: number }>(clientFor(sb), 'GET', '/calls');
      expect(page.total).toBe(5);
    } finally {
      await sb.close();
    }
  });
});
