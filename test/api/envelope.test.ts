import { afterEach, describe, expect, it } from 'vitest';
import { extractList, itemKey, unwrap } from '../../src/api/envelope.js';
import { ApiError } from '../../src/api/errors.js';
import { client, json, rejection, serve, type TestClient, type TestServer } from './helpers.js';

const open: Array<TestServer | TestClient> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((x) => x.close()));
});

const v1 = { id: 'v1', voice_name: 'Ava' };
const v2 = { id: 'v2', voice_name: 'Ben' };

describe('extractList', () => {
  it.each([
    ['a bare array', [v1, v2], undefined],
    ['an object with the expected key', { voices: [v1, v2], total: 2, limit: 50, offset: 0 }, 2],
    ['an object with exactly one array field', { data: [v1, v2], count: 2 }, 2],
    ['an object with one array field of another name', { results: [v1, v2] }, undefined],
    ['the expected key among several arrays', { voices: [v1, v2], languages: ['en-US'] }, undefined],
    ['items among several arrays', { items: [v1, v2], languages: ['en-US'] }, undefined],
    ['a list wrapped in data', { data: { voices: [v1, v2], total: 2 } }, 2],
    ['a total as a string and in meta', { items: [v1, v2], meta: { total: '2' } }, 2],
  ])('accepts %s', (_name, body, total) => {
    const page = extractList(body, 'voices', 'http://h/voices');
    expect(page.items).toEqual([v1, v2]);
    expect(page.total).toBe(total);
  });

  it('accepts an empty list', () => {
    expect(extractList({ agents: [], total: 0 }, 'agents').items).toEqual([]);
    expect(extractList([], 'voices').items).toEqual([]);
  });

  // The spec shows these two envelopes; the shapes it leaves open stay flexible (above).
  it.each([
    ['calls', 'a bare array', [{ call_id: 'c1' }], /expected \{calls: \[\.\.\.\], total, limit, offset\}, got a bare list of 1 item$/],
    ['calls', 'an object without the list', { total: 3, items: [{ call_id: 'c1' }] }, /expected \{calls: .*, got an object with total, items$/],
    ['calls', 'the list wrapped in data', { data: { calls: [] } }, /got an object with data$/],
    ['agents', 'a list of strings', { agents: ['a1'], total: 1 }, /expected agents as objects, got a string at position 1 of agents$/],
    ['agents', 'null', null, /got null$/],
  ])('refuses for %s %s', (key, _name, body, message) => {
    let caught: unknown;
    try {
      extractList(body, key, 'http://api.example.com/v1/' + key);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ApiError);
    expect(caught).toMatchObject({ kind: 'unexpected' });
    expect((caught as ApiError).message).toMatch(/^api\.example\.com sent an unexpected response: /);
    expect((caught as ApiError).message).toMatch(message);
  });

  it('reads the spec envelope of calls with its total and limit', () => {
    expect(extractList({ calls: [{ call_id: 'c1' }], total: 9, limit: 1, offset: 0 }, 'calls')).toEqual({ items: [{ call_id: 'c1' }], total: 9, limit: 1 });
  });

  it.each([
    ['a plain array of contacts (the spec)', 'contacts', [{ phone_number: '+1' }]],
    ['contacts wrapped in an object', 'contacts', { contacts: [{ phone_number: '+1' }] }],
    ['campaigns as a bare array (endpoint not in the spec)', 'campaigns', [{ id: 'k' }]],
    ['webhook endpoints under data', 'endpoints', { data: [{ id: 'e' }] }],
    ['deliveries as a bare array', 'deliveries', [{ status: 'failed' }]],
    ['kb items under items', 'items', { items: [{ id: 'i' }] }],
  ])('keeps accepting %s', (_name, key, body) => {
    expect(extractList(body, key).items).toHaveLength(1);
  });

  it.each([
    ['an object without arrays', { voice: v1 }],
    ['an object with two unnamed arrays', { a: [v1], b: [v2] }],
    ['a string', 'voices'],
    ['null', null],
    ['an empty body', undefined],
  ])('rejects %s as an unexpected response', (_name, body) => {
    let caught: unknown;
    try {
      extractList(body, 'voices', 'http://api.example.com/v1/voices');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ApiError);
    expect(caught).toMatchObject({ kind: 'unexpected' });
    expect((caught as ApiError).message).toMatch(/^api\.example\.com sent an unexpected response: expected a list of voices, got /);
  });

  it('reads each shape the same way through the client', async () => {
    const shapes: unknown[] = [[v1, v2], { voices: [v1, v2] }, { list: [v1, v2], total: 2 }, { nothing: true }];
    const server = await serve((_req, res, _b, n) => json(res, 200, shapes[n - 1]));
    const c = client(server.url);
    open.push(server, c);
    for (let i = 0; i < 3; i++) expect(extractList(await c.api.get('/voices'), 'voices').items).toEqual([v1, v2]);
    const err = (await rejection(Promise.resolve().then(async () => extractList(await c.api.get('/voices'), 'voices', c.api.url('/voices'))))) as ApiError;
    expect(err.kind).toBe('unexpected');
    expect(err.message).toContain(server.host);
  });
});

describe('unwrap and itemKey', () => {
  it('unwraps an object under its resource name or data, but not an object with an id', () => {
    const agent = { id: 'a1', name: 'A' };
    expect(unwrap({ agent }, 'agent')).toEqual(agent);
    expect(unwrap({ data: agent }, 'agent')).toEqual(agent);
    expect(unwrap(agent, 'agent')).toEqual(agent);
    const withData = { id: 'c1', data: { note: 'x' } };
    expect(unwrap(withData, 'call')).toBe(withData);
    expect(unwrap(undefined, 'agent')).toBeUndefined();
  });

  it('identifies items by id, call_id or job_id', () => {
    expect(itemKey({ id: 'x' })).toBe('x');
    expect(itemKey({ call_id: 'c' })).toBe('c');
    expect(itemKey({ id: 7 })).toBe('7');
    expect(itemKey({ name: 'n' })).toBeUndefined();
    expect(itemKey('x')).toBeUndefined();
  });
});
