/**
 * Agents: CRUD with the plan's limits (agent count, languages, active inbound agents),
 * the voice's language as the default, and deletion that keeps past campaigns and calls
 * with agent_id set to null.
 */
import { HttpError, type Route } from '../router.js';
import { voiceByName } from '../voices-data.js';
import type { Agent, OrgState, World } from '../world.js';
import {
  badField, bodyObject, notFound, optionalString, optionalStringArray, page, pageParams, patchBody, planLimit, requiredString,
} from '../validate.js';

const DIRECTIONS = ['outbound', 'inbound'];
const EDITABLE = ['name', 'voice_name', 'language', 'greeting', 'call_purpose', 'prompt', 'tools', 'kb_item_ids', 'status', 'direction'];
const READ_ONLY = ['id', 'created_at', 'updated_at', 'phone_number'];

function findAgent(org: OrgState, id: string): Agent {
  const agent = Object.hasOwn(org.agents, id) ? org.agents[id] : undefined;
  if (!agent) throw notFound('agent', id);
  return agent;
}

function canonicalVoice(name: string): string {
  const voice = voiceByName(name);
  if (!voice) throw new HttpError(400, `voice_name "${name}" is not a known voice; GET /voices lists them`, { code: 'unknown_voice', field: 'voice_name' });
  return voice.voice_name;
}

function checkLanguage(world: World, language: string): void {
  if (!world.plan.languages.includes(language)) {
    throw planLimit('language_not_allowed', `language ${language} is not in your plan (allowed: ${world.plan.languages.join(', ')})`, { language });
  }
}

function checkDirection(value: unknown): string {
  if (typeof value !== 'string' || !DIRECTIONS.includes(value)) throw badField('direction', `must be one of ${DIRECTIONS.join(', ')}`);
  return value;
}

function checkStatus(value: unknown): string {
  if (typeof value !== 'string' || !/^[a-z_]{2,32}$/.test(value)) throw badField('status', 'must be a status word such as active or inactive');
  return value;
}

/** An inbound agent answering a number counts against the plan's active-agent limit. */
function checkActiveLimit(world: World, org: OrgState, except?: string): void {
  let active = 0;
  for (const a of Object.values(org.agents)) {
    if (a.id !== except && a.direction === 'inbound' && a.status === 'active') active++;
  }
  if (active >= world.plan.active_agent_limit) {
    throw planLimit('active_agent_limit_exceeded', `your plan allows ${world.plan.active_agent_limit} active inbound agents and ${active} are active; deactivate one first`, { active_agent_limit: world.plan.active_agent_limit });
  }
}

function phoneNumberFor(world: World): string {
  // Sandbox numbers come from a range that never rings a real phone.
  return `+9180${String(Math.floor(world.random() * 1e8)).padStart(8, '0')}`;
}

function create(world: World, org: OrgState, body: unknown): Agent {
  const obj = bodyObject(body);
  const name = requiredString(obj, 'name');
  const voiceName = canonicalVoice(requiredString(obj, 'voice_name'));
  const language = optionalString(obj, 'language') ?? voiceByName(voiceName)!.language_code;
  const direction = obj.direction === undefined ? 'outbound' : checkDirection(obj.direction);
  const status = obj.status === undefined ? (direction === 'inbound' ? 'inactive' : 'active') : checkStatus(obj.status);
  const fields = {
    greeting: optionalString(obj, 'greeting') ?? `Hello, this is ${name}.`,
    call_purpose: optionalString(obj, 'call_purpose') ?? '',
    prompt: optionalString(obj, 'prompt') ?? '',
    tools: optionalStringArray(obj, 'tools') ?? [],
    kb_item_ids: optionalStringArray(obj, 'kb_item_ids') ?? [],
  };
  for (const k of Object.keys(obj)) {
    if (!EDITABLE.includes(k)) throw badField(k, 'is not an agent field');
  }
  if (Object.keys(org.agents).length >= world.plan.agent_limit) {
    throw planLimit('agent_limit_exceeded', `your plan allows ${world.plan.agent_limit} agents; delete one or upgrade`, { agent_limit: world.plan.agent_limit });
  }
  checkLanguage(world, language);
  if (direction === 'inbound' && status === 'active') checkActiveLimit(world, org);
  const now = world.clock.nowIso();
  const agent: Agent = {
    id: world.uuid(), name, status, language, voice_name: voiceName, ...fields, direction,
    phone_number: direction === 'inbound' ? phoneNumberFor(world) : null, created_at: now, updated_at: now,
  };
  org.agents[agent.id] = agent;
  return agent;
}

function update(world: World, org: OrgState, agent: Agent, body: unknown): Agent {
  const obj = patchBody(body, EDITABLE, READ_ONLY);
  const next: Agent = { ...agent };
  if ('name' in obj) next.name = requiredString(obj, 'name');
  if ('voice_name' in obj) next.voice_name = canonicalVoice(requiredString(obj, 'voice_name'));
  for (const k of ['greeting', 'call_purpose', 'prompt'] as const) {
    if (k in obj) next[k] = optionalString(obj, k)!;
  }
  if ('tools' in obj) next.tools = optionalStringArray(obj, 'tools')!;
  if ('kb_item_ids' in obj) next.kb_item_ids = optionalStringArray(obj, 'kb_item_ids')!;
  if ('direction' in obj) next.direction = checkDirection(obj.direction);
  if ('status' in obj) next.status = checkStatus(obj.status);
  if ('language' in obj) {
    next.language = requiredString(obj, 'language');
    if (next.language !== agent.language) checkLanguage(world, next.language);
  }
  const becomesActiveInbound = next.direction === 'inbound' && next.status === 'active'
    && !(agent.direction === 'inbound' && agent.status === 'active');
  if (becomesActiveInbound) checkActiveLimit(world, org, agent.id);
  if (next.direction === 'inbound' && !next.phone_number) next.phone_number = phoneNumberFor(world);
  next.updated_at = world.clock.nowIso();
  org.agents[agent.id] = next;
  return next;
}

/** Past campaigns and calls stay, pointing at no agent. */
function remove(world: World, org: OrgState, agent: Agent): void {
  delete org.agents[agent.id];
  for (const c of Object.values(org.campaigns)) {
    if (c.agent_id === agent.id) c.agent_id = null;
  }
  for (const call of Object.values(org.calls)) {
    if (call.agent_id === agent.id) call.agent_id = null;
  }
  world.calls(org).touchAll();
}

export const agentRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/agents',
    scope: 'agents:read',
    handle: (req) => ({ status: 200, body: page('agents', Object.values(req.org.agents), pageParams(req.query)) }),
  },
  {
    method: 'POST',
    pattern: '/agents',
    scope: 'agents:write',
    handle: (req, world) => ({ status: 201, body: create(world, req.org, req.body) }),
  },
  {
    method: 'GET',
    pattern: '/agents/:id',
    scope: 'agents:read',
    handle: (req) => ({ status: 200, body: findAgent(req.org, req.params.id!) }),
  },
  {
    method: 'PATCH',
    pattern: '/agents/:id',
    scope: 'agents:write',
    handle: (req, world) => ({ status: 200, body: update(world, req.org, findAgent(req.org, req.params.id!), req.body) }),
  },
  {
    method: 'DELETE',
    pattern: '/agents/:id',
    scope: 'agents:write',
    handle(req, world) {
      const agent = findAgent(req.org, req.params.id!);
      remove(world, req.org, agent);
      return { status: 200, body: { id: agent.id, deleted: true } };
    },
  },
];
