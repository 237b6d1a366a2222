/**
 * The other choices a service may make where the spec says "not shown": the same
 * sandbox, with its routes reshaped. Used by tests (and anyone checking a client) to run
 * against a server that differs from this one exactly where the spec allows.
 */
import type { Reply, Route, SandboxRequest } from './router.js';
import type { World } from './world.js';
import { isObject } from '../util/is-object.js';

export interface SandboxVariant {
  /** No GET /agents/{id}: the spec shows no single-agent read (the path then answers 405). */
  noAgentRead?: boolean;
  /** GET /agents leaves these fields out: the whole agent only from GET /agents/{id}. */
  agentListOmits?: string[];
  /** No GET /webhooks/endpoints: the spec shows no list of endpoints. */
  noWebhookList?: boolean;
  /** No GET /campaigns: the spec shows no list of campaigns. */
  noCampaignList?: boolean;
  /** PATCH and DELETE answer 204 with no body. */
  noContentOnWrite?: boolean;
  /**
   * Lists whose envelope the spec does not show (campaigns, knowledge-base items, webhook
   * endpoints, deliveries) as `{data: [...], meta: {total, limit, offset}}`, or as a bare
   * array of the page. GET /agents and GET /calls keep the envelope the spec shows.
   */
  listEnvelope?: 'spec' | 'data-meta' | 'bare';
  /** POST answers wrapped as `{data: {...}}`. */
  wrapCreated?: boolean;
  /**
   * Fields every agent carries beyond the spec's, with their starting values. They are
   * returned everywhere an agent is, and a POST or PATCH may set them.
   */
  agentExtras?: Record<string, unknown>;
}

const SPEC_SHAPED_LISTS = new Set(['/agents', '/calls']);

function reshapeList(body: unknown, shape: 'data-meta' | 'bare'): unknown {
  if (!isObject(body) || typeof body.total !== 'number') return body;
  const key = Object.keys(body).find((k) => Array.isArray(body[k]));
  if (!key) return body;
  if (shape === 'bare') return body[key];
  return { data: body[key], meta: { total: body.total, limit: body.limit, offset: body.offset } };
}

export function variantRoutes(routes: Route[], variant: SandboxVariant | undefined): Route[] {
  if (!variant) return routes;
  const extras = new Map<string, Record<string, unknown>>();
  const extraKeys = Object.keys(variant.agentExtras ?? {});

  const withExtras = (agent: unknown): unknown => {
    if (!isObject(agent) || typeof agent.id !== 'string' || extraKeys.length === 0) return agent;
    if (!extras.has(agent.id)) extras.set(agent.id, structuredClone(variant.agentExtras!));
    return { ...agent, ...extras.get(agent.id) };
  };
  /** The request without the extra fields, which the sandbox's own handler would refuse. */
  const split = (req: SandboxRequest): { req: SandboxRequest; given: Record<string, unknown> } => {
    if (!isObject(req.body) || extraKeys.length === 0) return { req, given: {} };
    const body = { ...req.body };
    const given: Record<string, unknown> = {};
    for (const k of extraKeys) {
      if (k in body) {
        given[k] = body[k];
        delete body[k];
      }
    }
    return { req: { ...req, body }, given };
  };

  const out: Route[] = [];
  for (const route of routes) {
    const { method, pattern } = route;
    if (variant.noAgentRead && method === 'GET' && pattern === '/agents/:id') continue;
    if (variant.noWebhookList && method === 'GET' && pattern === '/webhooks/endpoints') continue;
    if (variant.noCampaignList && method === 'GET' && pattern === '/campaigns') continue;
    out.push({
      ...route,
      async handle(req: SandboxRequest, world: World): Promise<Reply> {
        const isAgent = pattern === '/agents' || pattern === '/agents/:id';
        const { req: inner, given } = isAgent && (method === 'POST' || method === 'PATCH') ? split(req) : { req, given: {} };
        const reply = await route.handle(inner, world);
        if (reply.status >= 400) return reply;
        let body = reply.body;
        if (isAgent && extraKeys.length) {
          if (method === 'GET' && pattern === '/agents' && isObject(body) && Array.isArray(body.agents)) {
            body = { ...body, agents: body.agents.map(withExtras) };
          } else if (method !== 'DELETE' && isObject(body) && typeof body.id === 'string') {
            withExtras(body);
            Object.assign(extras.get(body.id)!, given);
            body = withExtras(body);
          }
        }
        if (method === 'GET' && pattern === '/agents' && variant.agentListOmits && isObject(body) && Array.isArray(body.agents)) {
          const omit = variant.agentListOmits;
          body = { ...body, agents: body.agents.map((a: Record<string, unknown>) => Object.fromEntries(Object.entries(a).filter(([k]) => !omit.includes(k)))) };
        }
        // Only the lists whose envelope the spec leaves open: it shows GET /agents and GET /calls.
        if (method === 'GET' && variant.listEnvelope && variant.listEnvelope !== 'spec' && !SPEC_SHAPED_LISTS.has(pattern)) body = reshapeList(body, variant.listEnvelope);
        if ((method === 'PATCH' || method === 'DELETE') && variant.noContentOnWrite) return { status: 204, headers: reply.headers };
        if (method === 'POST' && variant.wrapCreated && isObject(body) && typeof body.id === 'string') body = { data: body };
        return { ...reply, body };
      },
    });
  }
  return out;
}
