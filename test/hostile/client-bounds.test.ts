/**
 * The client against servers that never stop, drip, compress, or bomb: every answer is
 * bounded in size and in time, and compressed answers are read.
 */
import { existsSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { call, eachHostile, sendJson } from './client-harness.js';

const { start } = eachHostile();

/** Writes 1 MB chunks for as long as the client reads. */
function endless(res: ServerResponse, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': 'application/json', ...headers });
  res.write('{"calls":[');
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  const pump = () => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', pump);
  };
  pump();
}

const page = { calls: [call(1), call(2)], total: 2, limit: 200, offset: 0 };

describe('response size cap', () => {
  it('refuses an endless body at the default 64 MB with "response too large", exit 1', async () => {
    const h = await start((_req, res) => endless(res));
    const r = await h.run(['call', 'list', '--json']);
    expect(r.exitCode).toBe(1);
    // Under --json the error is one JSON object on stderr.
    const e = JSON.parse(r.stderr);
    expect(e.error).toMatch(/^response too large: 127\.0\.0\.1:\d+ sent more than 64 MB for GET \/calls; voicectl stops reading there \(VOICECTL_MAX_RESPONSE_MB raises the limit\)$/);
    expect(e.exit_code).toBe(1);
    expect(r.stdout).toBe('');
  });

  it('takes its cap from VOICECTL_MAX_RESPONSE_MB, and refuses a bad value with exit 2', async () => {
    const h = await start((_req, res) => endless(res));
    const r = await h.run(['call', 'list'], { VOICECTL_MAX_RESPONSE_MB: '2' });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('sent more than 2 MB for GET /calls');
    const bad = await h.run(['call', 'list'], { VOICECTL_MAX_RESPONSE_MB: 'lots' });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('VOICECTL_MAX_RESPONSE_MB must be a positive number of megabytes, got "lots"');
  });

  it('refuses a compression bomb by its decoded size', async () => {
    // 80 MB of JSON whitespace, about 80 KB gzipped: small on the wire, too large decoded.
    const bomb = gzipSync(Buffer.concat([Buffer.from('{"calls":['), Buffer.alloc(80 * 1024 * 1024, 0x20), Buffer.from('],"total":0}')]));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const h = await start((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(bomb.length) });
      res.end(bomb);
    });
    const r = await h.run(['call', 'list', '--json']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('response too large');
    expect(r.stderr).toContain('sent more than 64 MB once decompressed for GET /calls');
  });
});

describe('--timeout is a deadline for the whole answer', () => {
  it('gives up on a body that drips a byte a second, after the deadline, without retrying', async () => {
    const timers: NodeJS.Timeout[] = [];
    const h = await start((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"calls":[');
      timers.push(setInterval(() => { if (!res.destroyed) res.write(' '); }, 1000));
    });
    try {
      const r = await h.run(['call', 'list', '--timeout', '3']);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(/^error: timed out: 127\.0\.0\.1:\d+ had not finished sending its answer to GET \/calls after 3s \(raise --timeout if it is just slow\)$/);
      expect(h.seen).toHaveLength(1);
    } finally {
      timers.forEach(clearInterval);
    }
  });

  it('gives up on headers that never come, naming the deadline', async () => {
    const h = await start(() => { /* never answers */ });
    const r = await h.run(['agent', 'list', '--timeout', '1']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^error: timed out: 127\.0\.0\.1:\d+ did not answer GET \/agents within 1s/);
    expect(h.seen).toHaveLength(1);
  });
});

describe('compressed answers', () => {
  it.each([
    ['gzip', (b: Buffer) => gzipSync(b)],
    ['br', (b: Buffer) => brotliCompressSync(b)],
  ])('asks for gzip and br, and reads a %s answer', async (coding, compress) => {
    const h = await start((_req, res) => {
      const body = compress(Buffer.from(JSON.stringify(page)));
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding, 'content-length': String(body.length) });
      res.end(body);
    });
    const r = await h.run(['call', 'list', '--json']);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).map((c: { call_id: string }) => c.call_id)).toEqual(['call_1', 'call_2']);
    expect(h.headers[0]!['accept-encoding']).toBe('gzip, br');
  });

  it('reads an error body that is compressed', async () => {
    const h = await start((_req, res) => {
      const body = gzipSync(JSON.stringify({ error: 'the calls store is rebuilding', status_code: 500 }));
      res.writeHead(500, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(body);
    });
    const r = await h.run(['call', 'get', 'call_1']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('GET /calls/call_1 failed (HTTP 500): the calls store is rebuilding');
  });

  it('says so when the coding is one it cannot read, or the data is corrupt', async () => {
    const h = await start((req, res) => {
      if (req.url!.startsWith('/calls/zstd')) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'zstd' });
        res.end('(\xb5/\xfd');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(Buffer.from('not gzip at all'));
    });
    const zstd = await h.run(['call', 'get', 'zstd']);
    expect(zstd.exitCode).toBe(1);
    expect(zstd.stderr).toMatch(/answered with Content-Encoding "zstd", which voicectl cannot decode \(it accepts gzip and br\)/);
    // The message only: the body left unread must not end the run with an unhandled 'error' event and its stack.
    expect(zstd.stderr).not.toMatch(/Unhandled|\n\s+at |node:events/);
    expect(zstd.stderr.trim().split('\n')).toHaveLength(1);
    const corrupt = await h.run(['call', 'get', 'c1']);
    expect(corrupt.exitCode).toBe(1);
    expect(corrupt.stderr).toMatch(/^error: 127\.0\.0\.1:\d+ sent a compressed body that could not be decoded/);
    expect(corrupt.stderr).not.toMatch(/\n\s+at /);
  });

  it('still reads a plain answer to the same request', async () => {
    const h = await start((_req, res) => sendJson(res, 200, page));
    const r = await h.run(['call', 'list', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(2);
  });
});

describe('a recording download that stops', () => {
  /** The service hands out a link to itself; the audio starts, then stalls or is cut. */
  const recordingServer = (audio: (res: ServerResponse) => void) => start((req, res) => {
    if (req.url!.startsWith('/calls/c1/recording')) {
      sendJson(res, 200, { recording_url: `http://${req.headers.host}/audio/c1.wav?sig=abc` });
      return;
    }
    audio(res);
  });

  it('names the stall and the wait (exit 1), leaves no file, and prints no "unexpected error"', async () => {
    const h = await recordingServer((res) => {
      res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': '100000' });
      res.write(Buffer.alloc(1000));
    });
    const out = `${h.config.dir}/c1.wav`;
    const r = await h.run(['call', 'recording', 'c1', '--download', out, '--timeout', '1']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^error: the download stalled: 127\.0\.0\.1:\d+ sent no data for 1s \(raise --timeout if the link is just slow\); nothing was saved to .*c1\.wav\.$/);
    expect(r.stderr).not.toContain('unexpected error');
    expect(existsSync(out)).toBe(false);
    const piped = await h.run(['call', 'recording', 'c1', '--download', '-', '--timeout', '1']);
    expect(piped.exitCode).toBe(1);
    expect(piped.stderr).toContain('the download stalled');
    expect(piped.stdout.length).toBe(1000);
  });

  it('names a connection cut before the end (exit 1)', async () => {
    const h = await recordingServer((res) => {
      res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': '100000' });
      res.write(Buffer.alloc(1000), () => res.destroy());
    });
    const r = await h.run(['call', 'recording', 'c1', '--download', `${h.config.dir}/cut.wav`]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^error: the download broke off: 127\.0\.0\.1:\d+ closed the connection before the whole recording arrived; nothing was saved/);
    expect(r.stderr).not.toContain('sig=abc');
  });
});
