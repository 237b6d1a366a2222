import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, describeLimit, errorFromResponse, networkError } from '../../src/api/errors.js';
import { client, json, rejection, serve, type TestClient, type TestServer } from './helpers.js';

const open: Array<TestServer | TestClient> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((x) => x.close()));
});

/** The ApiError of one request answered with `status`, `body` and `contentType`. */
async function failWith(status: number, body: string, contentType = 'application/json', method: 'GET' | 'POST' = 'POST') {
  const server = await serve((_req, res) => {
    res.writeHead(status, contentType ? { 'content-type': contentType } : {});
    res.end(body);
  });
  const c = client(`${server.url}/v1`);
  open.push(server, c);
  const err = (await rejection(method === 'GET' ? c.api.get('/agents') : c.api.post('/agents', { name: 'A' }))) as ApiError;
  expect(err).toBeInstanceOf(ApiError);
  return { err, server };
}

describe('error bodies', () => {
  it('reads `error` as a string', async () => {
    const body = JSON.stringify({ error: 'greeting is required', status_code: 422 });
    const { err } = await failWith(422, body);
    expect(err).toMatchObject({ kind: 'http', status: 422, message: 'greeting is required', body, method: 'POST', scope: 'agents:write' });
    expect(err.limit).toBeUndefined();
  });

  it('reads `error` as an object with message, limit and code', async () => {
    const { err } = await failWith(409, JSON.stringify({ error: { message: 'Name taken', limit: 'x_limit', code: 'name_conflict' }, status_code: 409 }));
    expect(err).toMatchObject({ status: 409, message: 'Name taken', limit: 'x_limit', code: 'name_conflict' });
  });

  it('carries a 402 limit from error.limit', async () => {
    const { err } = await failWith(402, JSON.stringify({ error: { message: 'Agent limit reached for your plan', limit: 'agent_limit_exceeded' }, status_code: 402 }));
    expect(err).toMatchObject({ status: 402, limit: 'agent_limit_exceeded', message: 'Agent limit reached for your plan' });
  });

  it('takes the limit of a 402 that names it only as its error string', async () => {
    const { err } = await failWith(402, JSON.stringify({ error: 'language_not_allowed', status_code: 402 }));
    expect(err).toMatchObject({ status: 402, limit: 'language_not_allowed', message: 'language_not_allowed' });
  });

  it('uses the limit as the message when the object has no message', async () => {
    const { err } = await failWith(402, JSON.stringify({ error: { limit: 'agent_limit_exceeded' } }));
    expect(err).toMatchObject({ limit: 'agent_limit_exceeded', message: 'agent_limit_exceeded' });
  });

  it('reads `message` and `detail` bodies of other servers', async () => {
    expect((await failWith(400, JSON.stringify({ message: 'bad input' }))).err.message).toBe('bad input');
    const detail = JSON.stringify({ detail: [{ loc: ['body', 'contacts', 3, 'phone_number'], msg: 'not E.164' }] });
    expect((await failWith(422, detail)).err.message).toBe('body.contacts.3.phone_number: not E.164');
  });

  it('describes an empty body with the host and status', async () => {
    const { err, server } = await failWith(500, '', '');
    expect(err.message).toBe(`${server.host} answered HTTP 500 Internal Server Error with an empty body`);
    expect(err.body).toBe('');
  });

  it('turns an HTML 502 page into one line naming the host and status, keeping the page in body', async () => {
    const page = '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n<body><h1>Bad Gateway</h1><p>nginx</p></body></html>\n';
    const { err, server } = await failWith(502, page, 'text/html; charset=utf-8', 'GET');
    expect(err.status).toBe(502);
    expect(err.message).toBe(`${server.host} answered HTTP 502 Bad Gateway with a non-JSON page (text/html)`);
    expect(err.message).not.toMatch(/[<>\n]/);
    expect(err.body).toBe(page);
    expect(server.requests).toHaveLength(5);
  });

  it('quotes a short plain-text body, which is readable as is', async () => {
    const { err, server } = await failWith(500, 'upstream timed out', 'text/plain');
    expect(err.message).toBe(`${server.host} answered HTTP 500 Internal Server Error: upstream timed out`);
  });

  it('shows a small JSON body that has no message', async () => {
    const { err, server } = await failWith(500, JSON.stringify({ status_code: 500 }));
    expect(err.message).toBe(`${server.host} answered HTTP 500 Internal Server Error with no error message: {"status_code":500}`);
  });

  it('keeps a long multi-line server message on one line', async () => {
    const { err } = await failWith(400, JSON.stringify({ error: `first\nsecond ${'x'.repeat(500)}` }));
    expect(err.message).not.toContain('\n');
    expect(err.message.length).toBeLessThanOrEqual(300);
    expect(err.message.startsWith('first second')).toBe(true);
  });

  it('names the scope the endpoint needs, for a 403 hint', async () => {
    const server = await serve((_req, res) => json(res, 403, { error: 'forbidden' }));
    const c = client(server.url);
    open.push(server, c);
    expect(((await rejection(c.api.post('/campaigns/c1/launch'))) as ApiError).scope).toBe('calls:dispatch');
    expect(((await rejection(c.api.post('/campaigns/json', {}))) as ApiError).scope).toBe('calls:write');
    expect(((await rejection(c.api.get('/calls'))) as ApiError).scope).toBe('calls:read');
    expect(((await rejection(c.api.delete('/webhooks/endpoints/e'))) as ApiError).scope).toBe('webhooks:manage');
  });
});

describe('errorFromResponse and networkError', () => {
  it('builds a redirect message from the location', () => {
    const err = errorFromResponse('GET', 'http://h/v1/agents', 308, '', undefined, '', undefined, { location: 'https://h/v1/agents' });
    expect(err.message).toBe('h answered HTTP 308 Permanent Redirect, redirecting to https://h/v1/agents; use that address as the base URL');
  });

  it('explains proxy refusals and unknown failures in one line with the host', () => {
    const tunnel = networkError('GET', 'https://api.example.com/x', Object.assign(new Error('Proxy response (403) !== 200 when HTTP Tunneling'), { code: 'UND_ERR_ABORTED' }), 1000);
    expect(tunnel.message).toBe('the proxy refused to connect to api.example.com (HTTP 403); check HTTPS_PROXY and NO_PROXY');
    const dns = networkError('GET', 'https://nope.invalid/x', Object.assign(new Error('getaddrinfo ENOTFOUND nope.invalid'), { code: 'ENOTFOUND' }), 1000);
    expect(dns.message).toBe('nope.invalid could not be found (check the base URL)');
    const odd = networkError('GET', 'http://h:1/x', new Error('something\nodd'), 1000);
    expect(odd).toMatchObject({ kind: 'network', message: 'h:1 could not be reached: something odd' });
  });

  it('says what each plan limit means', () => {
    expect(describeLimit('agent_limit_exceeded')).toContain('no more agents');
    expect(describeLimit('language_not_allowed')).toContain('language');
    expect(describeLimit('seats')).toContain('"seats"');
    expect(describeLimit(undefined)).toBeUndefined();
  });
});
