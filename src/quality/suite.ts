/**
 * `voicectl test suite.yaml`: real test calls with expectations. Each run of the suite is
 * one campaign (its name starts with `test:`) of the team's own test numbers, one per
 * scenario; it is launched inside calling hours after saying how many calls it places,
 * waited for, and each call is checked against its scenario's rules, as `calls check`
 * does. The suite file is checked whole before any request.
 */
import { readUserTextOr } from '../util/user-file.js';
import { basename, dirname } from 'node:path';
import { isMap, isSeq, type Node } from 'yaml';
import type { ApiClient } from '../api/client.js';
import { resolveAgent } from '../api/agents.js';
import type { CampaignDraft } from '../api/campaigns.js';
import { getCall, type Call } from '../api/calls.js';
import type { Context } from '../context.js';
import { FailureError, UsageError } from '../errors.js';
import { gateCallingHours } from '../hours/hours-gate.js';
import { CampaignsStopped, createCampaigns, waitForCompletion } from '../campaigns/create-campaigns.js';
import { confirmLaunch, launchError } from '../campaigns/launch-flow.js';
import { Checker, prepareEnvironment, type CheckResult } from './check.js';
import { Fields, parseYaml, readRules, refuse, type Rule } from './rules.js';
import { noun } from '../text/text.js';

export interface Scenario {
  name: string;
  phone_number: string;
  contactName?: string;
  extra?: unknown;
  rules: Rule[];
}

export interface Suite {
  file: string;
  name: string;
  agent: string;
  repeat: number;
  callingHours?: string;
  /** Minutes to wait for a run's campaign to complete. */
  timeoutMinutes: number;
  scenarios: Scenario[];
}

export async function loadSuite(path: string): Promise<Suite> {
  const text = await readUserTextOr(path, {}, (reason) => new UsageError(`${path}: ${reason}.`));
  return parseSuite(text, path);
}

const TOP = ['name', 'agent', 'repeat', 'calling_hours', 'timeout_minutes', 'rules', 'scenarios'];
const SCENARIO = ['name', 'phone_number', 'contact_name', 'extra', 'expect'];

function parseSuite(text: string, file: string): Suite {
  const { doc, at } = parseYaml(text, file);
  const top = doc.contents as Node | null;
  if (!isMap(top)) throw refuse(at, top, 'a suite is a mapping with agent, scenarios and optionally repeat, rules, calling_hours', SUITE_HINT);
  const f = new Fields(top, at);
  for (const key of f.keys()) if (!TOP.includes(key)) throw refuse(at, f.node(key), `unknown key "${key}" (a suite has ${TOP.join(', ')})`, SUITE_HINT);
  const agent = f.string('agent', true)!;
  const shared = f.node('rules') === undefined ? [] : readRules(f.node('rules'), at, 'rules');
  const scenariosNode = f.node('scenarios');
  if (!isSeq(scenariosNode) || scenariosNode.items.length === 0) throw refuse(at, scenariosNode ?? top, 'scenarios must be a list of at least one scenario', SUITE_HINT);
  const scenarios: Scenario[] = [];
  const names = new Set<string>();
  const phones = new Set<string>();
  for (const item of scenariosNode.items as Node[]) {
    if (!isMap(item)) throw refuse(at, item, 'each scenario is a mapping with name, phone_number, extra and expect', SUITE_HINT);
    const s = new Fields(item, at);
    for (const key of s.keys()) if (!SCENARIO.includes(key)) throw refuse(at, s.node(key), `unknown scenario key "${key}" (a scenario has ${SCENARIO.join(', ')})`, SUITE_HINT);
    const name = s.string('name', true)!;
    if (names.has(name)) throw refuse(at, s.node('name'), `scenario "${name}" is named twice`);
    names.add(name);
    const phone = s.string('phone_number', true)!;
    if (!/^\+[1-9]\d{6,14}$/.test(phone)) throw refuse(at, s.node('phone_number'), `scenario "${name}": phone_number must be E.164 (+ and digits), not "${phone}"`);
    if (phones.has(phone)) throw refuse(at, s.node('phone_number'), `scenario "${name}": ${phone} is already another scenario's number (a campaign calls each number once)`);
    phones.add(phone);
    const own = s.node('expect') === undefined ? [] : readRules(s.node('expect'), at, 'expect');
    const rules = [...shared, ...own].map((r) => ({ ...r, id: `${name}/${r.id}` }));
    if (rules.length === 0) throw refuse(at, item, `scenario "${name}" expects nothing: give it expect: rules, or the suite rules:`);
    const extraNode = s.node('extra');
    const extra = extraNode === undefined ? undefined : (extraNode as Node & { toJSON(): unknown }).toJSON();
    const contactName = s.string('contact_name');
    scenarios.push({ name, phone_number: phone, rules, ...(contactName ? { contactName } : {}), ...(extra !== undefined ? { extra } : {}) });
  }
  const callingHours = f.string('calling_hours');
  return {
    file, name: f.string('name') ?? basename(file).replace(/\.ya?ml$/i, ''), agent,
    repeat: f.int('repeat', 1) ?? 1, timeoutMinutes: f.number('timeout_minutes') ?? 30, scenarios,
    ...(callingHours !== undefined ? { callingHours } : {}),
  };
}

const SUITE_HINT = 'See docs/quality.md for the suite format. Nothing was sent.';

/** The agent by id, name, or its handle in a voicectl.yaml beside the suite. */
async function agentFor(api: ApiClient, suite: Suite): Promise<{ id: string; name?: string }> {
  const dir = dirname(suite.file);
  const { findConfig, loadDesired } = await import('../gitops/load.js');
  if (findConfig(dir)) {
    const desired = await loadDesired(dir);
    const handle = desired.agents.get(suite.agent);
    if (handle) {
      const { lockPath, readLock } = await import('../gitops/lock.js');
      const locked = (await readLock(lockPath(dir)))?.agents[suite.agent]?.id;
      const agent = await resolveAgent(api, locked ?? handle.text.name ?? suite.agent);
      return { id: agent.id, name: agent.name };
    }
  }
  const agent = await resolveAgent(api, suite.agent);
  return { id: agent.id, name: agent.name };
}

export interface SuiteResult extends CheckResult {
  campaigns: string[];
}

export async function runSuite(ctx: Context, suite: Suite): Promise<SuiteResult> {
  const rules = suite.scenarios.flatMap((s) => s.rules);
  // Lists and windows first: a bad exclude file or window is refused before anything is created.
  const api = await ctx.api();
  const env = await prepareEnvironment(ctx, { rules, rulesDir: dirname(suite.file) }, async () => api, () => {});
  const numbers = suite.scenarios.map((s) => s.phone_number);
  gateCallingHours(ctx, numbers, { window: suite.callingHours, ignore: false, wait: false }, 'no test call was placed');
  const agent = await agentFor(api, suite);
  const total = suite.scenarios.length * suite.repeat;
  ctx.info(`${suite.name}: ${suite.scenarios.length} ${noun(suite.scenarios.length, 'scenario')} × ${suite.repeat} ${noun(suite.repeat, 'run')} = ${total} test ${noun(total, 'call')} to ${agent.name ?? agent.id}, one campaign per run.`);
  await confirmLaunch(ctx, [{ name: `test: ${suite.name}`, dial: total }], { declined: 'Cancelled: no test call was placed.' });

  const checker = new Checker(rules, env);
  const campaigns: string[] = [];
  let at = 0;
  for (let run = 1; run <= suite.repeat; run++) {
    // The window may have closed while the previous run was under way.
    if (run > 1) gateCallingHours(ctx, numbers, { window: suite.callingHours, ignore: false, wait: false }, `runs ${run}-${suite.repeat} were not placed`);
    const name = `test: ${suite.name} run ${run}/${suite.repeat}`;
    const id = await createAndLaunch(api, {
      name, agent_id: agent.id,
      contacts: suite.scenarios.map((s) => ({ phone_number: s.phone_number, name: s.contactName ?? `Test ${s.name}`, ...(s.extra !== undefined ? { extra: s.extra } : {}) })),
    }, ctx.signal, (created) => campaigns.push(created));
    ctx.info(ctx.errColor.dim(`Run ${run}/${suite.repeat}: campaign ${id} launched; waiting for its calls.`));
    await waitForCompletion(ctx, api, id, {
      timeoutMs: suite.timeoutMinutes * 60_000,
      intervalMs: 1000,
      timedOut: (status) => new FailureError(`Campaign ${id} had not completed after ${suite.timeoutMinutes} minutes (status ${status ?? 'unknown'}).`, {
        hint: `Follow it with \`voicectl watch ${id}\`, then check its calls with \`voicectl calls check --campaign ${id}\`. The suite's timeout_minutes sets the wait.`,
      }),
    });
    const { listContacts } = await import('../api/campaigns.js');
    const contacts = await listContacts(api, id, { signal: ctx.signal });
    for (const s of suite.scenarios) {
      const contact = contacts.find((c) => c.phone_number === s.phone_number);
      if (!contact?.call_id) throw new FailureError(`Run ${run}: scenario "${s.name}" (${s.phone_number}) has no call in campaign ${id}.`);
      const { call } = await getCall(api, contact.call_id, ctx.signal);
      checker.result.calls++;
      await checker.check(call as Call, at++, s.rules);
    }
  }
  return { ...checker.finish(), campaigns };
}

/**
 * One run's campaign, created and launched by the one campaign workflow (createCampaigns);
 * `created` hears of it as soon as it exists, launched or not. The service's refusals of
 * the launch are said in words, as `campaign launch` says them.
 */
async function createAndLaunch(api: ApiClient, draft: CampaignDraft, signal: AbortSignal, created: (id: string) => void): Promise<string> {
  try {
    const [result] = await createCampaigns(api, [{ draft, launch: true }], { created: (_p, id) => created(id) }, { signal });
    return result!.id;
  } catch (err) {
    if (!(err instanceof CampaignsStopped)) throw err;
    if (err.at.step === 'launch') throw launchError(err.cause, err.at.id!);
    // No id in the service's answer (a network failure keeps its own error).
    if (err.cause instanceof FailureError) throw new FailureError(`The service created "${draft.name}" but sent back no id: nothing was launched.`);
    throw err.cause;
  }
}

