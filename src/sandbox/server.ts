/**
 * The HTTP side: node:http, route matching, X-API-Key authentication and scopes, JSON
 * bodies, the error envelope, --latency, and the request log tests assert on.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { errorBody, HttpError, Router, type Reply, type Route, type SandboxRequest } from './router.js';
import type { KeyDef, World } from './world.js';
import { SANDBOX_CLOCK_HEADER, sandboxClockValue } from '../util/sandbox-clock.js';

export interface LoggedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export interface ServerOptions {
  latencyMs?: number;
  /** Organization that public routes see. */
  publicOrg: string;
  /** The request log keeps the most recent entries only, so a benchmark cannot exhaust memory. */
  logLimit?: number;
  /** Compress JSON answers when the client accepts gzip or br, as a real service does (default true). */
  compress?: boolean;
}

/** A reply whose body is already JSON text (the calls list builds its page from cached strings). */
export interface JsonReply extends Reply {
  json?: string;
}

const MAX_JSON_BODY = 32 * 1024 * 1024;

export function createSandboxServer(world: World, routes: Route[], opts: ServerOptions, requests: LoggedRequest[]): Server {
  const router = new Router(routes);
  const publicKey: KeyDef = { key: '', org: opts.publicOrg, scopes: [] };
  const logLimit = opts.logLimit ?? 5000;
  const server = createServer((req, res) => {
    void serve(req, res).catch((err: unknown) => {
      world.log(`sandbox: ${(err as Error).stack ?? String(err)}`);
      if (!res.headersSent) void send(res, { status: 500, body: errorBody(500, 'internal sandbox error') });
      else res.destroy();
    });
  });

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
    const logged: LoggedRequest = { method, path, query: Object.fromEntries(query), headers: req.headers, body: undefined };
    requests.push(logged);
    if (requests.length > logLimit) requests.splice(0, requests.length - logLimit);

    const reply: JsonReply = await dispatch(req, method, path, query, logged).catch((err: unknown): JsonReply => {
      if (err instanceof HttpError) return { status: err.status, body: errorBody(err.status, err.message, err.extra) };
      throw err;
    });
    // Anything that may have changed state schedules a --state write.
    if (method !== 'GET' && method !== 'HEAD' && reply.status < 400) world.changed();
    if (opts.latencyMs) await sleep(opts.latencyMs);
    if (!reply.stream && !req.complete) req.resume();
    // The sandbox's simulated clock, so voicectl on loopback decides and shows times on it (docs/sandbox-clock.md).
    reply.headers = { ...reply.headers, [SANDBOX_CLOCK_HEADER]: sandboxClockValue(world.clock.now(), world.clock.scale) };
    await send(res, reply, opts.compress === false ? undefined : req.headers['accept-encoding']);
  }

  async function dispatch(req: IncomingMessage, method: string, path: string, query: URLSearchParams, logged: LoggedRequest): Promise<JsonReply> {
    const { match, allowed } = router.match(method, path);
    if (!match) {
      if (allowed.length) throw new HttpError(405, `${method} is not allowed on ${path}`, { allowed });
      throw new HttpError(404, `no such endpoint: ${method} ${path}`, { code: 'not_found' });
    }
    const { route, params } = match;
    let key = publicKey;
    if (route.scope !== null) {
      const header = req.headers['x-api-key'];
      const given = Array.isArray(header) ? header[0] : header;
      if (!given) throw new HttpError(401, 'missing API key: send it in the X-API-Key header', { code: 'unauthorized' });
      const found = world.keys.get(given.trim());
      if (!found) throw new HttpError(401, 'invalid API key', { code: 'unauthorized' });
      if (!found.scopes.includes(route.scope)) {
        throw new HttpError(403, `this API key lacks the scope "${route.scope}"`, { code: 'insufficient_scope', scope: route.scope });
      }
      key = found;
    }
    const body = route.rawBody ? undefined : await readJson(req);
    logged.body = body;
    const host = req.headers.host;
    const sreq: SandboxRequest = {
      method, path, params, query, headers: req.headers, body, raw: req,
      org: world.org(key.org), key,
      baseUrl: host ? `http://${host}` : world.baseUrl,
    };
    return route.handle(sreq, world);
  }

  return server;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_JSON_BODY) throw new HttpError(413, `request body over ${MAX_JSON_BODY / 1024 / 1024} MB`);
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return undefined;
  const type = String(req.headers['content-type'] ?? '');
  if (!/^application\/([\w.+-]*\+)?json\b/i.test(type)) {
    throw new HttpError(415, `expected Content-Type: application/json, got ${type ? `"${type}"` : 'none'}`);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new HttpError(400, `request body is not valid JSON: ${(err as Error).message}`, { code: 'invalid_json' });
  }
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);
/** Below this a JSON answer is sent as is: compressing it saves less than its headers weigh. */
const COMPRESS_MIN_BYTES = 1024;

/** The coding to answer with: gzip when offered (cheap to make), br otherwise, or none. */
function chooseEncoding(accept: string | string[] | undefined): 'gzip' | 'br' | undefined {
  const offered = new Map<string, number>();
  for (const part of (Array.isArray(accept) ? accept.join(',') : accept ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
    if (name) offered.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const ok = (c: string) => (offered.get(c) ?? offered.get('*') ?? 0) > 0;
  if (ok('gzip')) return 'gzip';
  if (ok('br')) return 'br';
  return undefined;
}

async function send(res: ServerResponse, reply: JsonReply, acceptEncoding?: string | string[]): Promise<void> {
  const headers: Record<string, string> = { ...reply.headers };
  if (reply.stream) {
    res.writeHead(reply.status, headers);
    reply.stream.on('error', () => res.destroy());
    reply.stream.pipe(res);
    return;
  }
  if (reply.body instanceof Buffer) {
    headers['content-length'] = String(reply.body.length);
    res.writeHead(reply.status, headers);
    res.end(reply.body);
    return;
  }
  const text = reply.json ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
  if (!text) {
    res.writeHead(reply.status, headers);
    res.end();
    return;
  }
  headers['content-type'] ??= 'application/json; charset=utf-8';
  const encoding = text.length >= COMPRESS_MIN_BYTES ? chooseEncoding(acceptEncoding) : undefined;
  if (!encoding) {
    headers['content-length'] = String(Buffer.byteLength(text));
    res.writeHead(reply.status, headers);
    res.end(text);
    return;
  }
  // On the thread pool, so pages for concurrent requests compress in parallel.
  const body = encoding === 'gzip'
    ? await gzipAsync(text, { level: 6 })
    : await brotliAsync(text, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: text.length } });
  headers['content-encoding'] = encoding;
  headers.vary = 'accept-encoding';
  headers['content-length'] = String(body.length);
  res.writeHead(reply.status, headers);
  res.end(body);
}
