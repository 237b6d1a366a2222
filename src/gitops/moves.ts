/**
 * A handle renamed in voicectl.yaml. The lock knows the old handle, the files only the
 * new one: taken literally, that is "create a new agent, and stop managing (or, with
 * --prune, delete) the old one", which leaves two agents of one name and then deletes
 * the original. So a new handle is first matched with the lock's entries that left the
 * files: by name (the agent's in the account, else the name the lock recorded), else by
 * content; for endpoints by URL. One match is a move: the lock entry is renamed and
 * nothing is sent for it. More than one is refused before anything is sent.
 */
import type { Account } from './account.js';
import type { Lock, LockedAgent, LockedWebhook } from './lock.js';
import { AGENT_TEXT_FIELDS, sameSet, type Desired, type DesiredAgent } from './model.js';
import type { Agent } from '../api/agents.js';

export interface Move {
  kind: 'move';
  section: 'agents' | 'webhooks';
  from: string;
  to: string;
  /** What recognised it, for the plan. */
  by: string;
}

/** Fields compared to recognise an agent whose name changed together with its handle. */
const CONTENT_FIELDS = AGENT_TEXT_FIELDS.filter((f) => f !== 'name');

function sameContent(agent: DesiredAgent, server: Agent): boolean {
  const set = CONTENT_FIELDS.filter((f) => agent.text[f] !== undefined);
  // A few short fields match too many agents to mean anything: the long text must be there.
  if (!set.some((f) => f === 'prompt' || f === 'greeting' || f === 'call_purpose')) return false;
  if (!set.every((f) => server[f] === agent.text[f])) return false;
  return agent.tools === undefined || (Array.isArray(server.tools) && sameSet(agent.tools, server.tools));
}

/**
 * The moves the files imply, and the lock as it will be after them (a copy: the real
 * one changes when apply runs the move steps). Ambiguities go to `errors`.
 */
export function planMoves(desired: Desired, lock: Lock, account: Account, errors: string[]): { moves: Move[]; lock: Lock } {
  const moves: Move[] = [];
  const agents = { ...lock.agents };
  const webhooks = { ...lock.webhooks };
  const byId = new Map(account.agents.map((a) => [a.id, a]));

  const agentMatches = new Map<string, { orphans: string[]; by: string }>();
  const leftAgents = Object.keys(lock.agents).filter((h) => !desired.agents.has(h));
  for (const agent of desired.agents.values()) {
    if (lock.agents[agent.handle] || leftAgents.length === 0) continue;
    const name = agent.text.name;
    const serverOf = (l: LockedAgent) => (l.id ? byId.get(l.id) : undefined);
    let orphans = name === undefined ? [] : leftAgents.filter((h) => {
      const l = lock.agents[h]!;
      const s = serverOf(l);
      return s ? s.name === name : l.name === name;
    });
    let by = `the name "${name}"`;
    if (orphans.length === 0) {
      orphans = leftAgents.filter((h) => {
        const s = serverOf(lock.agents[h]!);
        return s !== undefined && sameContent(agent, s);
      });
      by = 'the same fields';
    }
    if (orphans.length) agentMatches.set(agent.handle, { orphans, by });
  }
  settle('agents', agentMatches, agents, moves, errors);

  const hookMatches = new Map<string, { orphans: string[]; by: string }>();
  const leftHooks = Object.keys(lock.webhooks).filter((h) => !desired.webhooks.has(h));
  const hooksById = new Map((account.webhooks ?? []).map((e) => [String(e.id), e]));
  for (const hook of desired.webhooks.values()) {
    if (lock.webhooks[hook.handle] || leftHooks.length === 0) continue;
    const orphans = leftHooks.filter((h) => {
      const l: LockedWebhook = lock.webhooks[h]!;
      const s = l.id ? hooksById.get(l.id) : undefined;
      return (s ? s.url : l.url) === hook.url;
    });
    if (orphans.length) hookMatches.set(hook.handle, { orphans, by: `the URL ${hook.url}` });
  }
  settle('webhooks', hookMatches, webhooks, moves, errors);

  return { moves, lock: { ...lock, agents, webhooks } };
}

function settle<T>(section: 'agents' | 'webhooks', matches: Map<string, { orphans: string[]; by: string }>, entries: Record<string, T>, moves: Move[], errors: string[]): void {
  const claims = new Map<string, string[]>();
  for (const [to, m] of matches) for (const o of m.orphans) claims.set(o, [...(claims.get(o) ?? []), to]);
  for (const [to, m] of matches) {
    const rivals = m.orphans.length === 1 ? claims.get(m.orphans[0]!)! : [];
    if (m.orphans.length === 1 && rivals.length === 1) {
      const from = m.orphans[0]!;
      entries[to] = entries[from]!;
      delete entries[from];
      moves.push({ kind: 'move', section, from, to, by: m.by });
      continue;
    }
    const which = m.orphans.length > 1
      ? `could be the renamed handle of ${m.orphans.join(' or ')} (matched by ${m.by})`
      : `and ${rivals.filter((r) => r !== to).join(', ')} both look like the renamed handle of ${m.orphans[0]} (matched by ${m.by})`;
    errors.push(`${section}.${to}: is not in the lock and ${which}; rename the handles back, or give the entry in voicectl.lock.json the new handle yourself, then plan again`);
  }
}
