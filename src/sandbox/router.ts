/**
 * The sandbox's request and route types, and path matching. Each resource file in
 * routes/ exports a Route[]; the server matches, authenticates, parses and dispatches.
 */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { KeyDef, OrgState, World } from './world.js';

export interface SandboxRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** Parsed JSON, or undefined when there was no body (or the route reads it raw). */
  body: unknown;
  /** Unread when the route sets `rawBody: true` (multipart uploads). */
  raw: IncomingMessage;
  /** The caller's organization; for public routes, the default organization. */
  org: OrgState;
  /** The caller's key; for public routes, a key with no scopes. */
  key: KeyDef;
  /** The base URL the caller reached us at, for links in responses. */
  baseUrl: string;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  stream?: Readable;
}

export interface Route {
  method: string;
  /** Path pattern with `:name` segments, for example '/kb/items/:id'. */
  pattern: string;
  /** The scope the key needs; null for a public route that takes no key. */
  scope: string | null;
  rawBody?: boolean;
  handle(req: SandboxRequest, world: World): Promise<Reply> | Reply;
}

/** Becomes `{"error": {"message", "code"?, "limit"?, ...extra}, "status_code": status}`. */
export { HttpError } from './http-error.js';

export function errorBody(status: number, message: string, extra: Record<string, unknown> = {}): unknown {
  return { error: { message, ...extra }, status_code: status };
}

interface Compiled {
  route: Route;
  segments: string[];
}

export interface Match {
  route: Route;
  params: Record<string, string>;
}

/** Matches method + path against the routes; `allowed` lists methods when only the path matched (405). */
export class Router {
  private readonly compiled: Compiled[];

  constructor(routes: Route[]) {
    this.compiled = routes.map((route) => ({ route, segments: split(route.pattern) }));
  }

  match(method: string, path: string): { match?: Match; allowed: string[] } {
    const parts = split(path);
    const allowed: string[] = [];
    for (const c of this.compiled) {
      const params = matchSegments(c.segments, parts);
      if (!params) continue;
      if (c.route.method === method) return { match: { route: c.route, params }, allowed };
      allowed.push(c.route.method);
    }
    return { allowed };
  }
}

function split(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    if (p.startsWith(':')) {
      let value: string;
      try {
        value = decodeURIComponent(parts[i]!);
      } catch {
        return undefined;
      }
      params[p.slice(1)] = value;
    } else if (p !== parts[i]) {
      return undefined;
    }
  }
  return params;
}
