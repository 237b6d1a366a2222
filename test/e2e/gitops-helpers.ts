/** Shared by the account-as-code end-to-end tests: the account as the service lists it, and YAML edits. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { fileTag } from '../../src/gitops/load.js';
import type { LoggedRequest } from '../../src/sandbox/server.js';
import type { SandboxVariant } from '../../src/sandbox/index.js';
import type { Client } from '../helpers/given.js';

/** The server that answers differently wherever the spec says "not shown". */
export const OTHER_CHOICES: SandboxVariant = {
  noAgentRead: true,
  noWebhookList: true,
  noContentOnWrite: true,
  listEnvelope: 'data-meta',
  wrapCreated: true,
  agentExtras: {
    voicemail: { detect: true, message: 'Namaste 🙏 — please leave a message', ratio: 0.5, retries: [1, 2, 3], note: null },
  },
};

/** Every agent, through either envelope. */
export async function agents(api: Client): Promise<Array<Record<string, any>>> {
  const r = await api('GET', '/agents?limit=200');
  return (Array.isArray(r.body) ? r.body : r.body.agents ?? r.body.data) as Array<Record<string, any>>;
}

/** Edits voicectl.yaml in place, keeping its tags and comments. */
export function editYaml(dir: string, edit: (doc: ReturnType<typeof parseDocument>) => void): void {
  const file = join(dir, 'voicectl.yaml');
  const doc = parseDocument(readFileSync(file, 'utf8'), { customTags: [fileTag] });
  edit(doc);
  writeFileSync(file, doc.toString({ lineWidth: 0 }));
}

export function writes(requests: LoggedRequest[]): LoggedRequest[] {
  return requests.filter((r) => r.method !== 'GET');
}

export function hasNull(value: unknown): boolean {
  if (value === null) return true;
  if (Array.isArray(value)) return value.some(hasNull);
  if (value && typeof value === 'object') return Object.values(value).some(hasNull);
  return false;
}
