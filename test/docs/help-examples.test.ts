/**
 * Every verb's help ends with examples, and every example runs. The examples are read as
 * data from the verbs' specs (src/commands/spec.ts), which the help renders; each verb's
 * run in a bash session of their own, against a sandbox of their own holding what they
 * name (agents "Priya - renewals" and "Sales desk", a finished campaign, the files
 * leads.csv, contacts.json, agent.json, policies/ …, profiles "default" and "staging").
 *
 * Placeholders get a fresh object each time (AGENT_ID, ENDPOINT_ID, ITEM_ID, JOB_ID), or
 * the finished campaign and one of its recorded calls (CAMPAIGN_ID, CALL_ID; a draft for
 * `campaign launch`). Addresses are the sandbox's and the reader's app's; `listen`,
 * `sandbox`, `call tail` and `watch --serve` run until Ctrl-C, once they are up. An example passes when it
 * exits 0 (`--fail-if` may also exit 1: it judges the campaign; so may `doctor`, which judges the machine).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { Context } from '../../src/context.js';
import { buildProgram, COMMANDS } from '../../src/program.js';
import { exampleCommand, exampleLines, isGroup, type Example } from '../../src/commands/spec.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { RECORDING_LINK_MS } from '../../src/sandbox/routes/calls.js';
import { clientFor, givenAgent, givenCampaign, givenFinishedCampaign, givenKbItem, type Client } from '../helpers/given.js';
import { tempDir } from '../helpers/temp.js';
import { run } from '../helpers/run.js';
import { freePort, programsFor, readerEnv, setUpFolder, startApp } from './reader.js';
import { needs } from '../helpers/requires.js';
import { Shell } from './shell.js';

interface VerbExamples {
  verb: string[];
  examples: readonly Example[];
}

/** Every verb with the examples its spec declares (as data: the help renders them). */
function verbs(): VerbExamples[] {
  return COMMANDS.flatMap((c) => (isGroup(c) ? c.verbs.map((v) => ({ verb: [c.name, v.name], examples: v.examples })) : [{ verb: [c.name], examples: c.examples }]));
}

/** The verb's help, from the same run() as the binary (the start-path tests hold them byte-equal). */
const helps = new Map<string, Promise<string>>();
function help(verb: string[]): Promise<string> {
  const key = verb.join(' ');
  if (!helps.has(key)) helps.set(key, run([...verb, '--help']).then((r) => r.stdout));
  return helps.get(key)!;
}

/** The commands a verb's examples run. */
function examplesOf(verb: string): string[] {
  return VERBS.find((v) => v.verb.join(' ') === verb)!.examples.map(exampleCommand);
}

const VERBS = verbs();

describe('every verb', () => {
  it('has examples, shown in one examples section of its help, and lists the global options', async () => {
    expect(VERBS.length).toBeGreaterThanOrEqual(34);
    expect(VERBS.filter((v) => v.examples.length === 0).map((v) => v.verb.join(' ')), 'verbs without an example').toEqual([]);
    const texts = await Promise.all(VERBS.map((v) => help(v.verb)));
    for (const [i, v] of VERBS.entries()) {
      const text = texts[i]!;
      expect(text.split('\nExamples:\n').length - 1, `${v.verb.join(' ')}: examples sections`).toBe(1);
      expect(text, v.verb.join(' ')).toContain(`\nExamples:\n${exampleLines(v.examples).join('\n')}\n`);
      expect(text, `${v.verb.join(' ')}: one blank line before the examples`).toMatch(/[^\n]\n\nExamples:\n/);
      expect(text, v.verb.join(' ')).toContain('Global Options:');
    }
  });

  it('lists the verbs the program has', () => {
    const ctx = new Context({ io: { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough() }, env: {} });
    // `globals` is hidden: the page of the global options (`voicectl help globals`), not a verb.
    const built = buildProgram(ctx).commands.filter((g) => !(g as unknown as { _hidden?: boolean })._hidden).flatMap((g) => {
      const subs = g.commands.filter((c) => c.name() !== 'help');
      return subs.length === 0 ? [g.name()] : subs.map((s) => `${g.name()} ${s.name()}`);
    });
    expect(VERBS.map((v) => v.verb.join(' '))).toEqual(built);
  });
});

describe('the sandbox of a verb whose examples download a recording', () => {
  it('runs slowly enough that a fresh link outlives the download on a busy machine', async () => {
    const examples = examplesOf('call recording');
    expect(examples.some((e) => e.includes('--download'))).toBe(true);
    // simulated link lifetime over the time scale: the link's life in real milliseconds
    expect(RECORDING_LINK_MS / timeScaleFor(examples)).toBeGreaterThanOrEqual(30_000);
  });
});

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
}, 60_000);

interface World {
  api: Client;
  url: string;
  appUrl: string;
  listenPort: number;
  campaign?: any;
}

async function finished(w: World): Promise<any> {
  w.campaign ??= await givenFinishedCampaign(w.api, { contacts: 20, name: 'Renewals March' });
  return w.campaign;
}

async function fill(w: World, shell: Shell, verb: string, text: string, key: string): Promise<string> {
  let out = text;
  while (out.includes('AGENT_ID')) out = out.replace('AGENT_ID', (await givenAgent(w.api, { name: `Agent ${Math.random().toString(36).slice(2, 7)}` })).id);
  while (out.includes('ENDPOINT_ID')) {
    // as the examples of webhook create make one: its secret saved in the profile
    const made = await shell.run(`voicectl webhook create --url ${w.appUrl}/hooks --allow-local --save-secret --json`);
    if (made.code !== 0) throw new Error(`endpoint creation failed: ${made.stderr}`);
    out = out.replace('ENDPOINT_ID', JSON.parse(made.stdout).id);
  }
  while (out.includes('ITEM_ID')) out = out.replace('ITEM_ID', (await givenKbItem({ url: w.url }, key)).item.id);
  while (out.includes('JOB_ID')) out = out.replace('JOB_ID', (await givenKbItem({ url: w.url }, key)).job_id);
  if (out.includes('CAMPAIGN_ID')) {
    const id = verb === 'campaign launch' ? (await givenCampaign(w.api, (await givenAgent(w.api)).id, 5)).id : (await finished(w)).id;
    out = out.replaceAll('CAMPAIGN_ID', id);
  }
  if (out.includes('CALL_ID')) {
    const calls = (await w.api('GET', `/calls?campaign_id=${(await finished(w)).id}&limit=200`)).body.calls as any[];
    out = out.replaceAll('CALL_ID', (calls.find((c) => c.has_recording) ?? calls[0]).call_id);
  }
  out = out.replace(/https:\/\/[^\s"']*example\.com\/v1/g, w.url);
  out = out.replace(/https?:\/\/localhost:3000/g, w.appUrl);
  if (/^voicectl listen\b/.test(out) && !/--port\b/.test(out) && !/--replay\b/.test(out)) out = out.replace(/^voicectl listen/, `voicectl listen --port ${w.listenPort}`);
  if (/^voicectl sandbox\b/.test(out)) out = /--port \d+/.test(out) ? out.replace(/--port \d+/, '--port 0') : `${out} --port 0`;
  // A person at a terminal answers the confirmation; the test has no terminal.
  if (/^voicectl (campaign launch|apply)\b/.test(out) && !/--yes\b/.test(out)) out += ' --yes';
  return out;
}

function runsUntilStopped(command: string): boolean {
  return (/^voicectl listen\b/.test(command) && !/--replay\b/.test(command)) || /^voicectl (call tail|sandbox)\b/.test(command)
    || /^voicectl (campaign )?watch\b.*--serve\b/.test(command);
}

/**
 * How much faster than the wall clock a verb's sandbox runs: fast, so the campaigns the
 * examples name finish at once, except where an example follows a link the service
 * dates. A recording link lives one simulated hour: 6 s of real time at 600x, too
 * short for a download on a busy machine; at 60x it lives a minute (the campaign takes
 * about 4 s to finish).
 */
function timeScaleFor(examples: string[]): number {
  return examples.some((e) => /^voicectl call recording\b/.test(e)) ? 60 : 600;
}

/**
 * voicectl decides calling hours on the sandbox's clock (docs/sandbox.md), so the sandbox
 * starts at 09:05 in India on a Thursday: at 600x its window stays open for 72 real seconds,
 * longer than any verb's examples take.
 */
const SANDBOX_START = '2026-11-26T03:35:00Z';

/** The files the examples name. */
function readerFiles(dir: string): void {
  writeFileSync(join(dir, 'contacts.json'), JSON.stringify([{ phone_number: '+919812345670', name: 'Asha' }, { phone_number: '+919812345671', name: 'Ravi', extra: { plan: 'Gold' } }]));
  writeFileSync(join(dir, 'agent.json'), JSON.stringify({ name: 'Priya - renewals', voice_name: 'Priya', greeting: 'Namaste!', call_purpose: 'Policy renewals', prompt: 'Remind the customer.', tools: [] }));
  mkdirSync(join(dir, 'policies/leave'), { recursive: true });
  writeFileSync(join(dir, 'policies/leave/a.md'), '# Leave\nTwenty days a year.\n');
  writeFileSync(join(dir, 'policies/travel.txt'), 'Economy class for trips under six hours.\n');
  writeFileSync(join(dir, 'faq.md'), '# FAQ\nRefunds take five working days.\n');
  writeFileSync(join(dir, 'pricing.xlsx'), readFileSync(join(dir, 'fixtures/contacts/workbook.xlsx')));
  writeFileSync(join(dir, 'secret.txt'), 'whsec_docs_app_0123456789abcdef\n');
  writeFileSync(join(dir, 'events.jsonl'), '');
  writeFileSync(join(dir, 'rules.yaml'), `rules:
  - {id: no-promises, kind: never_says, severity: error, role: agent, phrases: ["guaranteed returns"]}
  - {id: opt-out, kind: opt_out_honoured, severity: error, pattern: "do not call|don't call", within_turns: 1, outcomes: [do_not_call]}
  - {id: long, kind: max_duration, severity: warn, seconds: 600}
`);
  writeFileSync(join(dir, 'suite.yaml'), `agent: Sales desk
repeat: 1
calling_hours: "00:00-24:00"
scenarios:
  - {name: interested, phone_number: "+919810000201", extra: {sandbox_persona: interested}, expect: [{id: outcome, kind: outcome_in, outcomes: [requirements_gathered]}]}
  - {name: opt-out, phone_number: "+919810000202", extra: {sandbox_persona: opt_out}, expect: [{id: outcome, kind: outcome_in, outcomes: [do_not_call]}]}
`);
}

// Each verb has its own sandbox, folder and shell, so they run side by side.
describe.concurrent.each(VERBS.map((v) => v.verb.join(' ')))('voicectl %s --help', (verb) => {
  it('runs its examples', async (ctx) => {
    const examples = examplesOf(verb);
    expect(examples.length).toBeGreaterThan(0);
    needs(ctx, ...programsFor(examples));
    const sandbox = await startSandbox({ port: 0, timeScale: timeScaleFor(examples), seed: 7, allowLocalWebhooks: true, startAt: SANDBOX_START });
    const app = await startApp();
    const dir = tempDir('voicectl-help-');
    cleanups.push(() => dir.remove(), () => sandbox.close(), () => new Promise<void>((r) => app.server.close(() => r())));
    setUpFolder(dir.dir);
    readerFiles(dir.dir);
    const api = clientFor(sandbox);
    await givenAgent(api, { name: 'Priya - renewals', voice_name: 'Priya' });
    await givenAgent(api, { name: 'Sales desk' });
    const profile = { base_url: sandbox.url, api_key: sandbox.apiKey };
    mkdirSync(join(dir.dir, 'home/.config/voicectl'), { recursive: true });
    writeFileSync(join(dir.dir, 'home/.config/voicectl/config.json'), JSON.stringify({ profiles: { default: profile, staging: { ...profile, default_country: 'IN' } } }));
    await givenKbItem(sandbox, sandbox.apiKey, 'policies');
    const env = { ...readerEnv(dir.dir), VOICECTL_BASE_URL: sandbox.url, VOICECTL_API_KEY: sandbox.apiKey, VOICECTL_KEY: sandbox.apiKey, VOICE_API_KEY: sandbox.apiKey };
    mkdirSync(join(dir.dir, '.out'));
    const shell = new Shell(dir.dir, join(dir.dir, '.out'), env);
    cleanups.push(() => shell.close());
    const world: World = { api, url: sandbox.url, appUrl: app.url, listenPort: await freePort() };
    // the files pull writes, for the verbs that read them
    if (verb !== 'pull' && examples.some((e) => e.includes('account/'))) expect((await shell.run('voicectl pull account/')).code).toBe(0);
    for (const example of examples) {
      if (/^voicectl sandbox &/.test(example)) continue; // "then paste the export line": the environment has it
      if (/^voicectl approve\b/.test(example)) continue; // a person answers it at a terminal: test/mcp/launch.test.ts runs it so
      const command = await fill(world, shell, verb, example, sandbox.apiKey);
      const failure = (o: { code: number; stdout: string; stderr: string }) => `${verb}: ${command}\nexit ${o.code}\n--- stdout\n${o.stdout.slice(-2000)}\n--- stderr\n${o.stderr.slice(-2000)}`;
      if (runsUntilStopped(command)) {
        const n = await shell.start(command);
        for (const until = Date.now() + 10_000; Date.now() < until && !/Listening|Sandbox running|\S/.test(shell.output(n).stderr); ) await new Promise((r) => setTimeout(r, 50));
        await new Promise((r) => setTimeout(r, 300));
        const o = await shell.interrupt(n);
        expect([0, 130], failure(o)).toContain(o.code);
        continue;
      }
      const o = await shell.run(command);
      // `doctor` judges the machine, whose clock the pages pin: its failed checks exit 1.
      expect(/--fail-if|^voicectl doctor/.test(command) ? [0, 1] : [0], failure(o)).toContain(o.code);
    }
  }, 120_000);
});
