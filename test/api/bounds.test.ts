/**
 * The client's bounds in process: the deadline of an attempt, which ends a dripping JSON
 * body but not a download whose chunks keep coming; the body reader's codings and caps.
 */
import { Readable } from 'node:stream';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { BodyTooLargeError, decodingSteps, readBody, UnknownEncodingError } from '../../src/api/body.js';
import { ApiError } from '../../src/api/errors.js';
import { client, rejection, serve, type TestClient, type TestServer } from './helpers.js';

const open: Array<TestServer | TestClient> = [];
const timers: NodeJS.Timeout[] = [];
afterEach(async () => {
  timers.splice(0).forEach(clearInterval);
  await Promise.all(open.splice(0).map((x) => x.close()));
});

/** Answers with a first chunk, then one more byte every `everyMs`, `count` times. */
async function drip(everyMs: number, count: number): Promise<TestServer> {
  const server = await serve((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.write('x');
    let sent = 0;
    const t = setInterval(() => {
      if (res.destroyed) return clearInterval(t);
      res.write('x');
      if (++sent === count) {
        clearInterval(t);
        res.end();
      }
    }, everyMs);
    timers.push(t);
  });
  open.push(server);
  return server;
}

describe('the deadline of an attempt', () => {
  it('ends a JSON body that drips, with a timeout error, and does not retry it', async () => {
    const server = await drip(50, 1000);
    const c = client(server.url, { timeoutMs: 400 });
    open.push(c);
    const err = (await rejection(c.api.get('/calls'))) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.kind).toBe('timeout');
    expect(err.message).toBe(`timed out: ${server.host} had not finished sending its answer to GET /calls after 400ms (raise --timeout if it is just slow)`);
    expect(server.requests).toHaveLength(1);
  });

  it('lets a download run past it while chunks keep coming', async () => {
    const server = await drip(50, 16);
    const c = client(server.url, { timeoutMs: 400 });
    open.push(c);
    const res = await c.api.stream('GET', '/calls/c1/recording');
    const started = Date.now();
    const body = await res.body.text();
    expect(body).toBe('x'.repeat(17));
    // 16 chunks 50 ms apart: longer than the deadline as a whole, never between two chunks.
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
  });
});

describe('the deadline of an upload', () => {
  it('starts once the body is sent, so a slow upload whose chunks keep coming succeeds', async () => {
    const server = await serve((_req, res, body) => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ received: body.length }));
    });
    const c = client(server.url, { timeoutMs: 400 });
    open.push(server, c);
    async function* slow() {
      for (let i = 0; i < 16; i++) {
        await new Promise((r) => setTimeout(r, 50));
        yield Buffer.from('y');
      }
    }
    const started = Date.now();
    const answer = await c.api.post('/kb/items', undefined, { rawBody: Readable.from(slow(), { objectMode: false }), headers: { 'content-length': '16' } });
    expect(answer).toEqual({ received: 16 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
  });
});

describe('readBody', () => {
  const text = Buffer.from(JSON.stringify({ calls: Array.from({ length: 50 }, (_, i) => ({ call_id: `c${i}` })) }));
  const from = (buf: Buffer) => Readable.from([buf.subarray(0, 100), buf.subarray(100)]);

  it('decodes gzip, br, and both in the order they were applied', async () => {
    expect(await readBody(from(gzipSync(text)), 'gzip', { maxBytes: 1e6 })).toEqual(text);
    expect(await readBody(from(brotliCompressSync(text)), 'BR', { maxBytes: 1e6 })).toEqual(text);
    expect(await readBody(from(brotliCompressSync(gzipSync(text))), 'gzip, br', { maxBytes: 1e6 })).toEqual(text);
    expect(await readBody(from(text), 'identity', { maxBytes: 1e6 })).toEqual(text);
  });

  it('lists the steps to undo, last applied first, and refuses a coding it does not know', () => {
    expect(decodingSteps(['gzip', 'br'])).toEqual(['br', 'gzip']);
    expect(decodingSteps('x-gzip, identity')).toEqual(['gzip']);
    expect(decodingSteps(undefined)).toEqual([]);
    expect(() => decodingSteps('gzip, zstd')).toThrow(UnknownEncodingError);
  });

  it('fails past the cap, on raw and on decoded bytes, and keeps the start when truncating', async () => {
    await expect(readBody(from(text), undefined, { maxBytes: 200 })).rejects.toMatchObject({ name: 'BodyTooLargeError', decoded: false });
    const bomb = gzipSync(Buffer.alloc(10 * 1024 * 1024, 0x20));
    const err = await readBody(from(bomb), 'gzip', { maxBytes: 1024 * 1024 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BodyTooLargeError);
    expect(err).toMatchObject({ decoded: true, limit: 1024 * 1024 });
    expect((await readBody(from(text), undefined, { maxBytes: 10, truncate: true })).toString()).toBe('{"calls":[');
    const gz = gzipSync(text);
    expect(gz.length).toBeLessThan(300);
    expect(await readBody(from(gz), 'gzip', { maxBytes: 300, truncate: true })).toEqual(text.subarray(0, 300));
  });
});
