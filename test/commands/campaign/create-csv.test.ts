/** `campaign create -o csv` prints the rows the table shows: the contacts column included. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { clientFor, givenAgent } from '../../helpers/given.js';
import { run } from '../../helpers/run.js';
import { tempDir } from '../../helpers/temp.js';

let sandbox: Sandbox;
let agentId = '';
const dir = tempDir('voicectl-create-csv-');
const file = join(dir.dir, 'leads.csv');

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 5 });
  agentId = (await givenAgent(clientFor(sandbox))).id;
  writeFileSync(file, 'phone,name\n+919876543210,Asha\n+919988776655,Ravi\n+442079460958,Jo\n');
});
afterAll(async () => {
  await sandbox.close();
  dir.remove();
});

const env = () => ({ VOICECTL_BASE_URL: sandbox.url, VOICECTL_API_KEY: sandbox.apiKey });

describe('campaign create -o csv', () => {
  it('carries the contacts column, as the table does', async () => {
    const csv = await run(['campaign', 'create', '--name', 'Leads', '--agent', agentId, '--csv', file, '-o', 'csv'], { env: env() });
    expect(csv.exitCode).toBe(0);
    const [header, row, ...rest] = csv.stdout.trimEnd().split('\n');
    expect(header).toBe('id,name,status,contacts');
    expect(rest).toEqual([]);
    expect(row).toMatch(/^[^,]+,Leads,draft,3$/);

    const table = await run(['campaign', 'create', '--name', 'Leads', '--agent', agentId, '--csv', file], { env: env() });
    expect(table.exitCode).toBe(0);
    expect(table.stdout).toMatch(/^contacts\s+3$/m);
  });
});
