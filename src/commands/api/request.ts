import { resolve } from 'node:path';
import type { Context } from '../../context.js';
import type { Query } from '../../api/client.js';
import { safeHost } from '../../api/errors.js';
import { collectAll } from '../../api/pagination.js';
import { rawPages, sendRaw } from '../../api/raw.js';
import { FailureError, UsageError } from '../../errors.js';
import { confirm } from '../../io/prompter.js';
import { printJson } from '../../io/render.js';
import { withSpinner } from '../../io/progress.js';
import type { RequestFlags } from './definition.js';
import { API_METHODS } from './methods.js';

export default async function apiRequest(ctx: Context, methodArg: string, path: string, flags: RequestFlags): Promise<void> {
  const method = methodArg.toUpperCase();
  if (!(API_METHODS as readonly string[]).includes(method)) {
    throw new UsageError(`"${methodArg}" is not a method voicectl sends.`, { hint: `Use one of ${API_METHODS.join(', ')}.` });
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('//')) {
    // The key goes only to the profile's service, never to an address typed here.
    throw new UsageError(`"${path}" is an address, not a path.`, { hint: 'Give a path under the base URL, such as /agents; set the address with --base-url.' });
  }
  const fields = await readFields(ctx, flags);
  const input = flags.inputFile !== undefined ? await readBody(ctx, flags.inputFile) : undefined;
  if (flags.paginate && method !== 'GET') throw new UsageError('--paginate pages through a list: it works with GET only.');
  if (method === 'GET' && input !== undefined) throw new UsageError('A GET sends no body: --input is for POST, PATCH, PUT and DELETE.', { hint: 'Pass query parameters with -f key=value.' });
  // As gh does: the fields are the query of a GET, and of any request whose body is --input.
  const inQuery = method === 'GET' || input !== undefined;
  const query = inQuery ? queryOf(fields) : undefined;
  const body = input ?? (!inQuery && fields.length > 0 ? Object.fromEntries(fields) : undefined);

  const api = await ctx.api();
  refuseLeavingBase(api.baseUrl, api.url(path), path);
  if (method !== 'GET') {
    const ok = await confirm(ctx, `Send ${method} ${path} to ${safeHost(api.url('/'))}? It may change the account.`);
    if (!ok) throw new FailureError('Cancelled: nothing was sent.');
  }
  const req = { method, path, query, body, signal: ctx.signal };
  if (flags.paginate) {
    const { items, incomplete } = await withSpinner(ctx, `Fetching ${path}`, () => collectAll(rawPages(api, req)));
    await printJson(ctx, items);
    // What was read is printed; the exit status says it is not the whole list.
    if (incomplete) throw incomplete;
    return;
  }
  const answer = await withSpinner(ctx, `${method} ${path}`, () => sendRaw(api, req));
  if (answer !== undefined) await printJson(ctx, answer);
}

/**
 * The key goes only under the base URL's path: `/../../steal` against `https://host/v1`
 * would send it to `https://host/steal`, another service behind the same host. URL
 * resolution already folds `..`, `%2e%2e` and `\`; a segment that still decodes to `..`
 * (`..%2f`, `%252e%252e`) would be folded by a server that decodes once more.
 */
function refuseLeavingBase(baseUrl: string, url: string, given: string): void {
  const basePath = new URL(baseUrl).pathname.replace(/\/+$/, '');
  const resolved = new URL(url).pathname;
  const hint = `Give a path under the base URL${basePath ? ` (${basePath})` : ''}, such as /agents; set another address with --base-url.`;
  if (resolved !== basePath && !resolved.startsWith(`${basePath}/`)) {
    throw new UsageError(`"${given}" leaves the base URL's path ${basePath || '/'}: it resolves to ${resolved}.`, { hint });
  }
  for (const segment of resolved.slice(basePath.length).split('/')) {
    let text = segment;
    for (let i = 0; i < 3; i++) {
      if (text.split(/[/\\]/).some((part) => part === '..' || part === '.')) {
        throw new UsageError(`"${given}" has a segment that a server would read as ${text.includes('..') ? '".."' : '"."'} (${segment}): voicectl sends only paths that stay under the base URL.`, { hint });
      }
      let decoded: string;
      try {
        decoded = decodeURIComponent(text);
      } catch {
        break;
      }
      if (decoded === text) break;
      text = decoded;
    }
  }
}

type Field = [string, unknown];

async function readFields(ctx: Context, flags: RequestFlags): Promise<Field[]> {
  const out: Field[] = [];
  for (const raw of flags.rawField ?? []) {
    const [key, value] = split(raw, '-f');
    out.push([key, value]);
  }
  for (const raw of flags.field ?? []) {
    const [key, value] = split(raw, '-F');
    out.push([key, await typed(ctx, value)]);
  }
  return out;
}

function split(raw: string, flag: string): [string, string] {
  const eq = raw.indexOf('=');
  if (eq <= 0) throw new UsageError(`${flag} "${raw}" is not key=value.`, { hint: `Write ${flag} name=value.` });
  return [raw.slice(0, eq), raw.slice(eq + 1)];
}

/** -F: JSON literals as JSON, @FILE as the file's text, anything else as a string. */
async function typed(ctx: Context, value: string): Promise<unknown> {
  if (value.startsWith('@')) return readText(ctx, value.slice(1));
  if (/^(true|false|null|-?\d+(\.\d+)?([eE][+-]?\d+)?)$/.test(value) || /^\s*[[{]/.test(value)) {
    try {
      return JSON.parse(value);
    } catch {
      throw new UsageError(`-F value "${value}" looks like JSON but is not.`, { hint: 'Use -f for a plain string.' });
    }
  }
  return value;
}

function queryOf(fields: Field[]): Query {
  const q: Query = {};
  for (const [k, v] of fields) q[k] = typeof v === 'object' && v !== null ? JSON.stringify(v) : (v as string | number | boolean | null);
  return q;
}

async function readText(ctx: Context, file: string): Promise<string> {
  // Loaded here, not at start-up: node:fs brings more than `api GET` needs.
  const { readUserTextOr } = await import('../../util/user-file.js');
  return readUserTextOr(file === '-' ? file : resolve(ctx.cwd, file), { stdin: ctx.io.stdin, signal: ctx.signal }, (reason) => new UsageError(`Cannot read ${file === '-' ? 'standard input' : file}: ${reason}.`));
}

async function readBody(ctx: Context, file: string): Promise<unknown> {
  const text = await readText(ctx, file);
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new UsageError(`The body in ${file === '-' ? 'standard input' : file} is not JSON: ${(err as Error).message}`);
  }
}
