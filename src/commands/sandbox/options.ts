/**
 * Reading --keys, --plan and --learn files: any mistake is a usage error (exit 2) that names
 * the file, the entry and the field.
 */
import { readUserText, userFileReason } from '../../util/user-file.js';
import { UsageError } from '../../errors.js';
import type { KeyDef, Plan } from '../../sandbox/world.js';
import { ALL_SCOPES } from '../../sandbox/world.js';
import { isObject } from '../../util/is-object.js';

/** The text of the file `flag` names, read as every file named on the command line is (src/util/user-file.ts). */
export async function readFlagFile(flag: string, file: string, o?: Parameters<typeof readUserText>[1]): Promise<string> {
  try {
    return await readUserText(file, o);
  } catch (err) {
    throw new UsageError(`${flag} ${file}: ${userFileReason(err)}`);
  }
}

async function readJsonFile(flag: string, file: string): Promise<unknown> {
  const text = await readFlagFile(flag, file);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${flag} ${file}: not valid JSON (${(err as Error).message})`);
  }
}

export async function readKeys(file: string): Promise<KeyDef[]> {
  const data = await readJsonFile('--keys', file);
  const fail = (msg: string) => new UsageError(`--keys ${file}: ${msg}`, {
    hint: 'Expected a JSON array such as [{"key": "sk_test_1", "org": "acme", "scopes": ["agents:read", "calls:read"], "daily_dispatch_cap": 100}].',
  });
  if (!Array.isArray(data) || data.length === 0) throw fail('expected a non-empty JSON array of keys');
  const seen = new Set<string>();
  return data.map((entry: unknown, i): KeyDef => {
    const where = `entry ${i + 1}`;
    if (!isObject(entry)) throw fail(`${where} is not an object`);
    const e = entry;
    for (const k of Object.keys(e)) {
      if (!['key', 'org', 'scopes', 'daily_dispatch_cap'].includes(k)) throw fail(`${where}: unknown field "${k}"`);
    }
    if (typeof e.key !== 'string' || !/^\S{8,}$/.test(e.key)) throw fail(`${where}: "key" must be a string of at least 8 characters without spaces`);
    if (seen.has(e.key)) throw fail(`${where}: the key "${e.key}" appears twice`);
    seen.add(e.key);
    if (typeof e.org !== 'string' || !e.org.trim()) throw fail(`${where}: "org" must be a non-empty string`);
    if (!Array.isArray(e.scopes) || e.scopes.some((s) => typeof s !== 'string')) throw fail(`${where}: "scopes" must be an array of strings`);
    const unknown = (e.scopes as string[]).filter((s) => !ALL_SCOPES.includes(s));
    if (unknown.length) throw fail(`${where}: unknown scope ${unknown.map((s) => `"${s}"`).join(', ')} (scopes: ${ALL_SCOPES.join(', ')})`);
    const cap = e.daily_dispatch_cap;
    if (cap !== undefined && cap !== null && (typeof cap !== 'number' || !Number.isInteger(cap) || cap < 0)) {
      throw fail(`${where}: "daily_dispatch_cap" must be a whole number, 0 or more`);
    }
    const key: KeyDef = { key: e.key, org: e.org.trim(), scopes: [...new Set(e.scopes as string[])] };
    if (typeof cap === 'number') key.daily_dispatch_cap = cap;
    return key;
  });
}

export async function readPlan(file: string): Promise<Partial<Plan>> {
  const data = await readJsonFile('--plan', file);
  const fail = (msg: string) => new UsageError(`--plan ${file}: ${msg}`, {
    hint: 'Expected a JSON object such as {"agent_limit": 5, "active_agent_limit": 1, "languages": ["en-IN", "hi-IN"]}.',
  });
  if (!isObject(data)) throw fail('expected a JSON object');
  const d = data;
  const plan: Partial<Plan> = {};
  for (const [k, v] of Object.entries(d)) {
    if (k === 'agent_limit' || k === 'active_agent_limit') {
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw fail(`"${k}" must be a whole number, 0 or more`);
      plan[k] = v;
    } else if (k === 'languages') {
      if (!Array.isArray(v) || v.length === 0 || v.some((l) => typeof l !== 'string' || !/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(l))) {
        throw fail('"languages" must be a non-empty array of locale tags such as "hi-IN"');
      }
      plan.languages = [...new Set(v as string[])];
    } else {
      throw fail(`unknown field "${k}" (fields: agent_limit, active_agent_limit, languages)`);
    }
  }
  return plan;
}
