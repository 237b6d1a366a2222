import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSheet } from 'read-excel-file/node';
import { harness, type Harness } from '../helpers/cli.js';
import { campaignDone, givenAgent } from '../helpers/given.js';

interface SentContact {
  phone_number: string;
  name?: string;
  extra?: unknown;
}

let h: Harness;
let original: SentContact[] = [];
let campaignId = '';

const posts = () => h.sandbox.requests.filter((r) => r.method === 'POST' && r.path === '/campaigns/json');
const sent = () => (posts().at(-1)!.body as { contacts: SentContact[] }).contacts;
const byPhone = (list: SentContact[]) => [...list].sort((a, b) => a.phone_number.localeCompare(b.phone_number));

// The fixture's 25 Indian leads (local formats, ids with leading zeros) and contacts whose
// text a spreadsheet or a careless CSV writer would damage.
const HOSTILE = [
  '"=HYPERLINK(""http://evil.example"",""x"")",+44 20 7183 8750,"London, UK",-1+1,+000501,English',
  '@Mention Person,+1 415 555 0100,"San Francisco ""SF""",=SUM(1),000502,"multi\nline"',
  'Sunita Rao,+91 98450 00503,Bengaluru,Gold,007,',
].join('\n');

beforeAll(async () => {
  h = await harness();
  await givenAgent(h.api, { name: 'Round trip' });
  const input = join(h.configDir, 'leads.csv');
  writeFileSync(input, `${readFileSync('fixtures/leads.csv', 'utf8').trimEnd()}\n${HOSTILE}\n`);
  const r = await h.run(['campaign', 'create', '--name', 'Renewals', '--agent', 'Round trip', '--csv', input, '--default-country', 'IN', '--launch', '--yes', '--json', '--ignore-calling-hours']);
  expect(r.stderr).toContain('28 rows, 28 valid, 0 invalid');
  expect(r.exitCode).toBe(0);
  campaignId = (JSON.parse(r.stdout) as { id: string }).id;
  original = sent();
  expect(original).toHaveLength(28);
  await campaignDone(h.api, campaignId);
}, 60_000);
afterAll(async () => h.close());

describe('a finished campaign, exported and created again from the export', () => {
  it('xlsx: every phone is text with its +, and the same numbers, names and extras are sent again', async () => {
    const file = join(h.configDir, 'export.xlsx');
    const exported = await h.run(['call', 'export', '--campaign', campaignId, '--out', file]);
    expect(exported.exitCode).toBe(0);

    const [header, ...rows] = await readSheet(file);
    const phone = header!.indexOf('phone_number');
    expect(rows).toHaveLength(original.length);
    for (const row of rows) {
      expect(typeof row[phone]).toBe('string');
      expect(row[phone]).toMatch(/^\+\d{8,15}$/);
    }

    const before = posts().length;
    const again = await h.run(['campaign', 'create', '--name', 'Renewals again', '--agent', 'Round trip', '--csv', file]);
    expect(again.stderr).toContain('Created campaign "Renewals again" with 28 contacts');
    expect(again.exitCode).toBe(0);
    expect(posts()).toHaveLength(before + 1);
    expect(byPhone(sent())).toEqual(byPhone(original));
  });

  it('csv: the same numbers, names and extras are sent again', async () => {
    const file = join(h.configDir, 'export.csv');
    const exported = await h.run(['call', 'export', '--campaign', campaignId, '--out', file]);
    expect(exported.exitCode).toBe(0);
    const again = await h.run(['campaign', 'create', '--name', 'Renewals from CSV', '--agent', 'Round trip', '--csv', file]);
    expect(again.exitCode).toBe(0);
    const contacts = sent();
    expect(byPhone(contacts)).toEqual(byPhone(original));
    // The call's own fields stay out of extra.
    for (const c of contacts) for (const k of Object.keys(c.extra as object)) expect(['city', 'plan', 'customer_id', 'language']).toContain(k);
  });
});
