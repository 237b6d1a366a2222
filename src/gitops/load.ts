/**
 * Reading voicectl.yaml (or .json): YAML 1.2 through the yaml package, `!file` for text
 * kept in its own file, and every mistake reported at once with where it is, before any
 * request is sent.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { basename, join, posix, relative, resolve, sep } from 'node:path';
import { isMap, isScalar, type Document, type LineCounter, type ScalarTag } from 'yaml';
import { UsageError } from '../errors.js';
import { parseYaml, placeOf, problemList, yamlData } from '../util/yaml.js';
import { EVENT_TYPES } from '../webhooks/signature.js';
import { openInside, readInside, RefusedFile, somethingAt } from './files.js';
import {
  AGENT_KEYS, AGENT_TEXT_FIELDS, CONFIG_NAMES, FILE_FIELDS, kbPath, normalizeFolder,
  type Desired, type DesiredAgent, type DesiredDocument, type DesiredWebhook,
} from './model.js';
import { isObject } from '../util/is-object.js';

/** `prompt: !file prompts/sales.md` in YAML. */
export class FileRef {
  constructor(readonly path: string) {}
}

export const fileTag: ScalarTag = {
  tag: '!file',
  identify: (v) => v instanceof FileRef,
  resolve: (s) => new FileRef(s),
  stringify: (item) => String((item.value as FileRef).path),
};

export function findConfig(dir: string): string | undefined {
  for (const name of CONFIG_NAMES) {
    const p = join(dir, name);
    if (existsSync(p)) return p;
  }
  return undefined;
}

export async function loadDesired(dir: string): Promise<Desired> {
  const file = findConfig(dir);
  if (!file) {
    throw new UsageError(`No voicectl.yaml in ${dir}.`, {
      hint: 'Run `voicectl pull` to write one from the account, or create it (see docs/account-as-code.md).',
    });
  }
  let text: string;
  try {
    text = await readInside(dir, basename(file));
  } catch (err) {
    if (err instanceof RefusedFile) throw new UsageError(`${file} cannot be used: ${err.message}; voicectl reads only regular files inside the folder (see docs/safety.md).`);
    throw err;
  }
  const { doc, lines, problems } = parseYaml(text, [fileTag]);
  if (problems.length) throw invalid(file, problems);
  const read = yamlData(doc);
  if (read.problem !== undefined) throw invalid(file, [read.problem]);
  const data = read.data;
  if (data === null || data === undefined) {
    throw new UsageError(`${file} is empty: it declares nothing, which apply --prune would take as "delete everything".`, {
      hint: 'Start it with `version: 1`, then agents:, documents: and webhooks: (or run `voicectl pull` to write it from the account).',
    });
  }
  const errors: string[] = [];
  const desired = await readDesired(dir, file, data, errors);
  const place = (message: string) => withPlace(doc, lines, message);
  if (errors.length) throw invalid(file, errors.map(place));
  desired.place = place;
  return desired;
}

/**
 * `agents.sales.greting: unknown key` → `… (line 7, column 5)`: the dotted path before
 * the first ": " walked through the document's mappings. Handles and document paths may
 * hold dots, so each step takes the longest key that fits.
 */
function withPlace(doc: Document, lines: LineCounter, error: string): string {
  const colon = error.indexOf(': ');
  if (colon < 0) return error;
  let rest = error.slice(0, colon);
  let node: unknown = doc.contents;
  let offset: number | undefined;
  while (rest && isMap(node)) {
    let best: { key: string; pair: (typeof node.items)[number] } | undefined;
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      if ((rest === key || rest.startsWith(`${key}.`)) && (!best || key.length > best.key.length)) best = { key, pair };
    }
    if (!best) break;
    offset = isScalar(best.pair.key) ? best.pair.key.range?.[0] : undefined;
    rest = rest.slice(best.key.length + 1);
    node = best.pair.value;
  }
  if (offset === undefined) return error;
  return `${error} ${placeOf(lines, offset)}`;
}

function invalid(file: string, problems: string[]): UsageError {
  return new UsageError(`${file} is not valid:\n${problemList(problems)}`, { hint: '`voicectl schema` prints the JSON Schema of the file (see docs/account-as-code.md).' });
}

/** A mapping of the file: an object, and not a file reference (`!file`). */
function isMapping(v: unknown): v is Record<string, unknown> {
  return isObject(v) && !(v instanceof FileRef);
}

/** A path inside the folder, with forward slashes; anything outside it is refused. */
function insidePath(dir: string, raw: string, where: string, errors: string[]): string | undefined {
  const abs = resolve(dir, raw);
  const rel = relative(dir, abs);
  if (rel === '' || rel.startsWith('..') || resolve(rel) === rel) {
    errors.push(`${where}: "${raw}" is outside the folder`);
    return undefined;
  }
  return rel.split(sep).join(posix.sep);
}

async function readDesired(dir: string, file: string, data: unknown, errors: string[]): Promise<Desired> {
  const desired: Desired = { dir, file, agents: new Map(), documents: new Map(), webhooks: new Map() };
  if (!isMapping(data)) {
    errors.push('the top level must be a mapping with agents, documents and webhooks');
    return desired;
  }
  for (const k of Object.keys(data)) {
    if (!['version', 'agents', 'documents', 'webhooks'].includes(k)) errors.push(`${k}: unknown key (expected agents, documents, webhooks)`);
  }
  // Required: a file that lost its content (a bad merge, an empty commit) must not read as "nothing is managed".
  if (data.version === undefined) errors.push('version: missing; add `version: 1` at the top of the file');
  else if (data.version !== 1) errors.push(`version: only 1 is known, got ${JSON.stringify(data.version)}`);
  const section = (key: string) => {
    const v = data[key];
    if (v === undefined || v === null) return {};
    if (!isMapping(v)) {
      errors.push(`${key}: must be a mapping of names to entries`);
      return {};
    }
    return v;
  };
  // Files are read side by side: one after another, hundreds of small reads spend most
  // of their time waiting for the thread pool.
  const docs = await Promise.all(Object.entries(section('documents')).map(([local, entry]) => readDocument(dir, local, entry, errors)));
  for (const doc of docs) if (doc) desired.documents.set(doc.local, doc);
  const seenKb = new Map<string, string>();
  for (const doc of desired.documents.values()) {
    const key = kbPath(doc.folder, doc.name);
    const other = seenKb.get(key);
    if (other) errors.push(`documents: ${other} and ${doc.local} are both the account's ${key}`);
    else seenKb.set(key, doc.local);
  }
  const agents = await Promise.all(Object.entries(section('agents')).map(([handle, entry]) => readAgent(dir, handle, entry, desired, errors)));
  for (const agent of agents) if (agent) desired.agents.set(agent.handle, agent);
  const byName = new Map<string, string>();
  for (const a of desired.agents.values()) {
    const name = a.text.name;
    if (name === undefined) continue;
    const other = byName.get(name);
    if (other) errors.push(`agents.${a.handle}.name: "${name}" is also the name of agents.${other}; agent names must be unique`);
    else byName.set(name, a.handle);
  }
  for (const [handle, entry] of Object.entries(section('webhooks'))) {
    const hook = readWebhook(handle, entry, errors);
    if (hook) desired.webhooks.set(handle, hook);
  }
  return desired;
}

async function readAgent(dir: string, handle: string, entry: unknown, desired: Desired, errors: string[]): Promise<DesiredAgent | undefined> {
  const at = `agents.${handle}`;
  if (!isMapping(entry)) {
    errors.push(`${at}: must be a mapping of agent fields`);
    return undefined;
  }
  const agent: DesiredAgent = { handle, text: {}, other: {} };
  for (const [key, value] of Object.entries(entry)) {
    const where = `${at}.${key}`;
    const fileKey = key.endsWith('_file') ? key.slice(0, -5) : undefined;
    if (fileKey && (FILE_FIELDS as readonly string[]).includes(fileKey)) {
      if (fileKey in entry) errors.push(`${where}: give ${fileKey} or ${key}, not both`);
      else if (typeof value !== 'string') errors.push(`${where}: must be a path`);
      else agent.text[fileKey as 'prompt'] = await readTextFile(dir, value, where, errors);
      continue;
    }
    if (!(AGENT_KEYS as readonly string[]).includes(key)) {
      errors.push(`${where}: unknown key (fields the service returned that voicectl does not know go under other_fields)`);
      continue;
    }
    if (value === null || value === undefined) {
      errors.push(`${where}: is empty; the service rejects null, so leave the key out to leave the field alone`);
      continue;
    }
    if ((AGENT_TEXT_FIELDS as readonly string[]).includes(key)) {
      if (value instanceof FileRef) {
        if (!(FILE_FIELDS as readonly string[]).includes(key)) errors.push(`${where}: !file is for ${FILE_FIELDS.join(', ')}`);
        else agent.text[key as 'prompt'] = await readTextFile(dir, value.path, where, errors);
      } else if (typeof value === 'string') {
        agent.text[key as 'name'] = value;
      } else {
        errors.push(`${where}: must be text, got ${JSON.stringify(value)}`);
      }
    } else if (key === 'tools' || key === 'documents') {
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || v === '')) {
        errors.push(`${where}: must be a list of ${key === 'tools' ? 'tool names' : 'document paths'}`);
        continue;
      }
      if (key === 'tools') agent.tools = [...new Set(value as string[])];
      else {
        const paths: string[] = [];
        for (const p of value as string[]) {
          const local = insidePath(dir, p, where, errors);
          if (local === undefined) continue;
          if (!desired.documents.has(local)) errors.push(`${where}: ${p} is not declared under documents:`);
          else if (!paths.includes(local)) paths.push(local);
        }
        agent.documents = paths;
      }
    } else if (key === 'other_fields') {
      if (!isMapping(value)) errors.push(`${where}: must be a mapping`);
      else agent.other = value;
    }
  }
  if (agent.text.name !== undefined && agent.text.name.trim() === '') errors.push(`${at}.name: is empty`);
  return agent;
}

/** Why a file of the folder was not read, as the error list shows it. */
function readProblem(where: string, raw: string, err: unknown): string {
  if (err instanceof RefusedFile) return `${where}: refused: ${err.message} (voicectl reads only regular files inside the folder)`;
  const code = (err as NodeJS.ErrnoException).code;
  return `${where}: cannot read ${raw} (${code === 'ENOENT' ? 'no such file' : (err as Error).message})`;
}

/** The text of a `!file`: as written, less the one line break editors add at the end. */
async function readTextFile(dir: string, raw: string, where: string, errors: string[]): Promise<string | undefined> {
  const local = insidePath(dir, raw, where, errors);
  if (local === undefined) return undefined;
  try {
    const text = await readInside(dir, local);
    return text.replace(/^\uFEFF/, '').replace(/\r?\n$/, '');
  } catch (err) {
    errors.push(readProblem(where, raw, err));
    return undefined;
  }
}

async function readDocument(dir: string, key: string, entry: unknown, errors: string[]): Promise<DesiredDocument | undefined> {
  const where = `documents.${key}`;
  const local = insidePath(dir, key, where, errors);
  if (local === undefined) return undefined;
  const e = entry === null || entry === undefined ? {} : entry;
  if (!isMapping(e)) {
    errors.push(`${where}: must be a mapping (folder, name) or empty`);
    return undefined;
  }
  for (const k of Object.keys(e)) if (!['folder', 'name'].includes(k)) errors.push(`${where}.${k}: unknown key (expected folder, name)`);
  if (e.folder !== undefined && typeof e.folder !== 'string') errors.push(`${where}.folder: must be text`);
  if (e.name !== undefined && (typeof e.name !== 'string' || e.name.trim() === '' || /[/\\]/.test(e.name))) {
    errors.push(`${where}.name: must be a file name without folders`);
  }
  const folder = normalizeFolder(typeof e.folder === 'string' ? e.folder : '');
  const name = typeof e.name === 'string' && e.name.trim() ? e.name.trim() : posix.basename(local);
  const doc: DesiredDocument = { local, folder, name };
  const absPath = join(dir, local);
  // Only a path where nothing is makes a reference: a dangling link is refused, not taken for one.
  if (await somethingAt(absPath)) {
    try {
      doc.content = { ...(await hashInside(dir, local)), absPath, root: dir };
    } catch (err) {
      errors.push(readProblem(where, local, err));
    }
  }
  return doc;
}

/** Small files in one read; large ones streamed, so a 50 MB document is never held whole. */
const WHOLE_READ = 4 * 1024 * 1024;

/** The SHA-256 and size of a file of the folder, read through the one handle that was checked. */
async function hashInside(dir: string, local: string): Promise<{ sha256: string; size: number }> {
  const { handle, size: statSize } = await openInside(dir, local);
  try {
    if (statSize <= WHOLE_READ) {
      const bytes = await handle.readFile();
      return { sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length };
    }
    const hash = createHash('sha256');
    let size = 0;
    for await (const chunk of handle.createReadStream({ autoClose: false })) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    return { sha256: hash.digest('hex'), size };
  } finally {
    await handle.close();
  }
}

function readWebhook(handle: string, entry: unknown, errors: string[]): DesiredWebhook | undefined {
  const at = `webhooks.${handle}`;
  if (!isMapping(entry)) {
    errors.push(`${at}: must be a mapping with url, events, enabled`);
    return undefined;
  }
  for (const k of Object.keys(entry)) {
    if (k === 'secret') errors.push(`${at}.secret: secrets never go in these files; \`voicectl apply --secrets-out FILE\` keeps new ones outside them`);
    else if (!['url', 'events', 'enabled'].includes(k)) errors.push(`${at}.${k}: unknown key (expected url, events, enabled)`);
  }
  if (typeof entry.url !== 'string' || !/^https?:\/\/\S+$/i.test(entry.url)) {
    errors.push(`${at}.url: must be an http(s) URL`);
    return undefined;
  }
  const hook: DesiredWebhook = { handle, url: entry.url };
  if (entry.events !== undefined) {
    const events = entry.events;
    if (!Array.isArray(events) || events.length === 0 || events.some((e) => typeof e !== 'string')) {
      errors.push(`${at}.events: must be a non-empty list of event types; leave it out for all of them`);
    } else {
      const unknown = events.filter((e) => !(EVENT_TYPES as readonly string[]).includes(e as string));
      if (unknown.length) errors.push(`${at}.events: unknown event type ${unknown.join(', ')} (known: ${EVENT_TYPES.join(', ')})`);
      hook.events = [...new Set(events as string[])];
    }
  }
  if (entry.enabled !== undefined) {
    if (typeof entry.enabled !== 'boolean') errors.push(`${at}.enabled: must be true or false`);
    else hook.enabled = entry.enabled;
  }
  return hook;
}
