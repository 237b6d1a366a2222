/**
 * Answers of the wrong shape are reported as unexpected (exit 1), never printed as data;
 * the shapes the spec leaves open ("not shown") are still read.
 */
import { describe, expect, it } from 'vitest';
import { call, eachHostile, sendJson, TEXT_ERRORS, type Hostile } from './client-harness.js';

const { start } = eachHostile();

async function answering(body: unknown, headers: Record<string, string> = {}): Promise<Hostile> {
  return start((_req, res) => {
    if (typeof body === 'string') {
      res.writeHead(200, { 'content-type': 'text/html', ...headers });
      res.end(body);
    } else sendJson(res, 200, body, headers);
  });
}

describe('shapes the spec rules out', () => {
  it.each([
    ['call list', ['call', 'list', '--json'], [call(1), call(2)], /expected \{calls: \[\.\.\.\], total, limit, offset\}, got a bare list of 2 items$/],
    ['call list --all', ['call', 'list', '--all', '--json'], [call(1)], /got a bare list of 1 item$/],
    ['call list', ['call', 'list'], { results: [call(1)], total: 1 }, /expected \{calls: .*, got an object with results, total$/],
    ['agent list', ['agent', 'list', '--json'], [{ id: 'a1', name: 'Desk' }], /expected \{agents: .*, got a bare list of 1 item$/],
    ['agent list', ['agent', 'list', '--json'], { agents: 'Desk' }, /expected \{agents: .*, got an object with agents$/],
    ['call list', ['call', 'list', '--json'], { calls: [null], total: 1 }, /expected calls as objects, got null at position 1 of calls$/],
    ['call get', ['call', 'get', 'call_1', '--json'], [call(1)], /expected a call object for call_1, got a list$/],
  ])('%s: %j is unexpected, exit 1, nothing printed', async (_name, args, body, message) => {
    const h = await answering(body);
    const r = await h.run(args, TEXT_ERRORS);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: (127\.0\.0\.1:\d+ sent an unexpected response: )?/);
    expect(r.stderr).toMatch(message);
  });

  it('refuses a body that is not JSON, naming its type', async () => {
    const h = await answering('<html><body>Welcome to the gateway</body></html>');
    const r = await h.run(['call', 'list', '--json'], TEXT_ERRORS);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: 127\.0\.0\.1:\d+ answered HTTP 200 with a body that is not JSON \(text\/html\)$/);
  });
});

describe('shapes the spec leaves open are still read', () => {
  it.each([
    ['voice list (envelope not shown) as a bare array', ['voice', 'list', '--json'], [{ id: 'v1', voice_name: 'Ava' }]],
    ['voice list under data', ['voice', 'list', '--json'], { data: [{ id: 'v1', voice_name: 'Ava' }] }],
    ['campaign contacts (a plain array by spec)', ['campaign', 'contacts', 'k1', '--json'], [{ phone_number: '+919876543210', status: 'pending' }]],
    ['campaign contacts wrapped', ['campaign', 'contacts', 'k1', '--json'], { contacts: [{ phone_number: '+919876543210', status: 'pending' }] }],
    ['webhook list (endpoint not in the spec) as a bare array', ['webhook', 'list', '--json'], [{ id: 'e1', url: 'https://example.com/h', enabled: true }]],
    ['kb list (shape not shown) under items', ['kb', 'list', '--json'], { items: [{ id: 'i1', name: 'faq.md', type: 'file' }] }],
    ['campaign list (endpoint not in the spec) as a bare array', ['campaign', 'list', '--json'], [{ id: 'k1', name: 'Renewals', status: 'draft' }]],
  ])('%s', async (_name, args, body) => {
    const h = await answering(body);
    const r = await h.run(args, TEXT_ERRORS);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(1);
  });
});
