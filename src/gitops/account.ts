/**
 * The account as the service shows it, read with list requests only: agents, the
 * knowledge-base folders that matter, and webhook endpoints where the service lists them
 * (the spec shows no such list, nor a single-agent read, so neither is relied on).
 */
import type { ApiClient } from '../api/client.js';
import { allAgents, type Agent } from '../api/agents.js';
import { ApiError } from '../api/errors.js';
import { unwrap } from '../api/envelope.js';
import { isFolder, listItems, type KbItem } from '../api/kb.js';
import { listVoices } from '../api/voices.js';
import { listEndpoints, type WebhookEndpoint } from '../api/webhooks.js';
import { kbPath, normalizeFolder } from './model.js';

export interface AccountDocument {
  id: string;
  path: string;
  folder: string;
  name: string;
  size_bytes?: number;
}

export interface Account {
  agents: Agent[];
  /** Files of the folders read, by their path in the account. */
  documents: Map<string, AccountDocument>;
  documentsById: Map<string, AccountDocument>;
  /** Undefined when the service has no way to list them. */
  webhooks?: WebhookEndpoint[];
  /** The voice_name of every voice, when asked for and the service lists them. */
  voices?: Set<string>;
}

/** Statuses with which a server says "no such endpoint" for a read the spec does not show. */
const NOT_OFFERED = [404, 405, 501];

export async function readAccount(api: ApiClient, options: { folders: Iterable<string>; wholeKnowledgeBase?: boolean; webhooks?: boolean; voices?: boolean }): Promise<Account> {
  const account: Account = { agents: [], documents: new Map(), documentsById: new Map() };
  const agents = (async () => {
    for await (const a of allAgents(api)) if (a && typeof a === 'object' && a.id !== undefined) account.agents.push({ ...a, id: String(a.id) });
  })();
  const webhooks = options.webhooks === false ? Promise.resolve() : (async () => {
    try {
      account.webhooks = await listEndpoints(api);
    } catch (err) {
      if (!(err instanceof ApiError) || !NOT_OFFERED.includes(err.status ?? 0)) throw err;
    }
  })();
  const voices = !options.voices ? Promise.resolve() : (async () => {
    try {
      account.voices = new Set((await listVoices(api)).map((v) => v?.voice_name).filter((n): n is string => typeof n === 'string'));
    } catch (err) {
      if (!(err instanceof ApiError) || !NOT_OFFERED.includes(err.status ?? 0)) throw err;
    }
  })();
  const kb = options.wholeKnowledgeBase ? readTree(api, account) : readFolders(api, account, new Set(options.folders));
  await Promise.all([agents.then(() => completeAgents(api, account)), webhooks, voices, kb]);
  // An attached document in a folder not read yet: read the whole tree rather than
  // show (and then replace) an id nobody can name.
  if (!options.wholeKnowledgeBase && account.agents.some((a) => (a.kb_item_ids ?? []).some((id) => !account.documentsById.has(id)))) {
    await readTree(api, account);
  }
  return account;
}

/** Fields every agent has in the spec: a list that leaves them out is a summary, not the agent. */
const AGENT_BODY = ['greeting', 'call_purpose', 'prompt', 'tools', 'kb_item_ids'];
const READS_AT_ONCE = 8;

/**
 * A service may list agents in brief and keep the whole agent for a single read. Then
 * each agent is read on its own, where the service offers that; where it does not, the
 * list is all there is (a field it leaves out shows as not set).
 */
async function completeAgents(api: ApiClient, account: Account): Promise<void> {
  const brief = account.agents.filter((a) => AGENT_BODY.some((f) => !(f in a)));
  let next = 0;
  let offered = true;
  const worker = async () => {
    while (offered && next < brief.length) {
      const agent = brief[next++]!;
      try {
        const full = unwrap<Agent>(await api.get(`/agents/${encodeURIComponent(agent.id)}`), 'agent');
        if (full && typeof full === 'object' && String(full.id) === agent.id) Object.assign(agent, full, { id: agent.id });
      } catch (err) {
        if (!(err instanceof ApiError) || !NOT_OFFERED.includes(err.status ?? 0)) throw err;
        // 404 for an agent just listed means the path does not exist: no single reads here.
        offered = false;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(READS_AT_ONCE, brief.length) }, worker));
}

function add(account: Account, folder: string, item: KbItem): void {
  if (isFolder(item) || item.id === undefined || item.id === null) return;
  const name = String(item.name ?? String(item.path ?? '').split('/').pop() ?? '');
  const path = typeof item.path === 'string' && item.path ? normalizeFolder(item.path) : kbPath(folder, name);
  const doc: AccountDocument = {
    id: String(item.id), path, name, folder: path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '',
    size_bytes: typeof item.size_bytes === 'number' ? item.size_bytes : undefined,
  };
  account.documents.set(path, doc);
  account.documentsById.set(doc.id, doc);
}

async function listFolder(api: ApiClient, folder: string): Promise<KbItem[]> {
  try {
    return await listItems(api, folder || undefined);
  } catch (err) {
    // A folder that does not exist yet has nothing in it.
    if (folder && err instanceof ApiError && err.status === 404) return [];
    throw err;
  }
}

async function readFolders(api: ApiClient, account: Account, folders: Set<string>): Promise<void> {
  await Promise.all([...folders].map(async (folder) => {
    for (const item of await listFolder(api, folder)) add(account, folder, item);
  }));
}

/** Every folder, breadth first, a level's folders read side by side. */
async function readTree(api: ApiClient, account: Account): Promise<void> {
  let level = [''];
  const seen = new Set<string>();
  while (level.length) {
    const next: string[] = [];
    await Promise.all(level.map(async (folder) => {
      for (const item of await listFolder(api, folder)) {
        if (isFolder(item)) {
          const path = typeof item.path === 'string' && item.path ? normalizeFolder(item.path) : kbPath(folder, String(item.name ?? ''));
          if (path && !seen.has(path)) {
            seen.add(path);
            next.push(path);
          }
        } else {
          add(account, folder, item);
        }
      }
    }));
    level = next;
  }
}
