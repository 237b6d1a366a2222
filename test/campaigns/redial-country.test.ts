/**
 * Redial against a service that returns numbers as they were uploaded: a contact's number
 * and its call's number are read with the country the contact's extra names (the country
 * column it was uploaded with), so a call's do_not_call outcome still reaches the contact.
 */
import { describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { fakeServerPerTest } from '../commands/campaign/fake-server.js';

const ID = '11111111-2222-4333-8444-555555555555';
const fake = fakeServerPerTest();

describe('campaign redial and the contact\'s country', () => {
  it('a call read back in the US style under IN still matches its US contact, whose do_not_call keeps it out', async () => {
    const contacts = [
      { phone_number: '(646) 555-0143', name: 'John', status: 'no_answer', extra: { country: 'US' } },
      { phone_number: '98765 43210', name: 'Asha', status: 'no_answer' },
    ];
    const calls = [
      { call_id: 'c1', campaign_id: ID, status: 'completed', outcome: 'do_not_call', phone_number: '(646) 555-0143', start_time: '2026-05-01T10:15:00Z' },
      { call_id: 'c2', campaign_id: ID, status: 'no_answer', outcome: null, phone_number: '98765 43210', start_time: '2026-05-01T10:16:00Z' },
    ];
    const server = await fake.start({
      [`GET /campaigns/${ID}`]: () => ({ status: 200, body: { id: ID, name: 'Mixed', status: 'completed', agent_id: '00000000-0000-4000-8000-000000000000' } }),
      [`GET /campaigns/${ID}/contacts`]: () => ({ status: 200, body: contacts }),
      'GET /calls': () => ({ status: 200, body: { calls, total: calls.length, limit: 100, offset: 0 } }),
    });
    const r = await run(['campaign', 'redial', ID, '--default-country', 'IN', '--dry-run', '--json'], { env: { VOICECTL_BASE_URL: server.url, VOICECTL_API_KEY: 'sk_fake' } });
    expect(r.exitCode, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.would_create[0].contacts.map((c: { phone_number: string }) => c.phone_number)).toEqual(['+919876543210']);
    expect(out.refused_outcome).toEqual([expect.objectContaining({ phone_number: '+16465550143', outcome: 'do_not_call' })]);
  });
});
