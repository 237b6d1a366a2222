/**
 * `voicectl demo`: the main job end to end with no set-up. An embedded sandbox on a
 * free loopback port stands in for the service; the steps are the ones a user runs
 * (validate a spreadsheet, create a campaign, launch, watch, export) through the same
 * code. A context of its own points at the sandbox, with a throwaway config directory,
 * so the user's profile and key are never read or written.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createAgent } from '../../api/agents.js';
import { allCalls, type Call } from '../../api/calls.js';
import { Context, type Env } from '../../context.js';
import { FailureError } from '../../errors.js';
import { printList } from '../../io/output.js';
import { packageRoot } from '../../paths.js';
import type { WatchView } from '../../watch/view.js';
import { duration, plural } from '../../text/text.js';
import { CampaignsStopped, createCampaigns } from '../../campaigns/create-campaigns.js';
import { readContactsInput, spreadsheetSource, toWire } from '../../campaigns/input.js';
import { launchError } from '../../campaigns/launch-flow.js';
import { printDuplicates, printSkipped, summaryLine } from '../../campaigns/problems.js';
import { ProgressLines } from './progress-view.js';
import { chooseView, outputChoice, refuseFilterOnStream } from '../../io/render.js';
import type { DemoFlags } from './definition.js';

/** Fast enough that the longest simulated call (a few minutes) takes a couple of seconds. */
const TIME_SCALE = 120;
const SEED = 2024;
const POLL_MS = 400;
/** A safety net only: the demo campaign completes in seconds. */
const WATCH_TIMEOUT_MS = 120_000;

const AGENT = {
  name: 'Demo lead qualifier',
  voice_name: 'Ananya',
  greeting: 'Hi, this is Ananya from Sunrise Homes. You asked about our new apartments; is this a good time for two minutes?',
  call_purpose: 'Qualify website enquiries for a housing project',
  prompt: 'Confirm the caller\'s interest, budget and preferred move-in month. If they are busy, offer a callback. Keep it short and polite.',
  tools: ['schedule_callback', 'take_message', 'summarize_call'],
};

export default async function demo(ctx: Context, flags: DemoFlags): Promise<void> {
  refuseFilterOnStream(ctx, 'voicectl demo');
  const leads = join(packageRoot(), 'fixtures', 'leads.csv');
  if (!existsSync(leads)) throw new FailureError(`the demo's contacts file is missing: ${leads} (is the installation complete?)`);
  const c = ctx.errColor;
  const step = (text: string) => ctx.info(`${c.cyan('→')} ${text}`);
  ctx.info(c.bold('voicectl demo: a whole campaign against a local sandbox (no API key, no network, no balance).'));

  const configDir = await mkdtemp(join(tmpdir(), 'voicectl-demo-config-'));
  // The sandbox is loaded only by `sandbox`, `demo` and tests.
  const { startSandbox } = await import('../../sandbox/index.js');
  const sandbox = await startSandbox({
    port: 0,
    timeScale: TIME_SCALE,
    seed: SEED,
    log: (line) => { if (ctx.opts.debug) ctx.info(c.dim(line)); },
  });
  const dctx = demoContext(ctx, sandbox.url, sandbox.apiKey, configDir);
  try {
    step(`Sandbox running at ${sandbox.url} (simulated time ${TIME_SCALE}x faster, seed ${SEED})`);
    const api = await dctx.api();

    const agent = await createAgent(api, AGENT);
    step(`Created agent "${agent.name ?? AGENT.name}" (${agent.id}), voice ${AGENT.voice_name}`);

    const input = await readContactsInput(spreadsheetSource(leads), 'IN', ctx.signal);
    step(`Checked ${summaryLine(input)} (--default-country IN)`);
    printSkipped(ctx, input);
    printDuplicates(ctx, input, false);

    const name = `Demo: ${input.fileName}`;
    // The create-and-launch workflow `campaign create --launch` runs; no confirmation: these calls are simulated.
    let id = '';
    try {
      await createCampaigns(api, [{ draft: { name, agent_id: agent.id, contacts: input.contacts.map(toWire) }, launch: true }], {
        created: (_p, created, campaign) => {
          id = created;
          step(`Created campaign "${name}" (${id}) with ${plural(input.contacts.length, 'contact')}, status ${String(campaign.status ?? 'draft')}`);
        },
        launched: () => step('Launched it (no confirmation: these calls are simulated). Following it to completion:'),
      });
    } catch (err) {
      if (!(err instanceof CampaignsStopped)) throw err;
      throw err.at.step === 'launch' ? launchError(err.cause, err.at.id!) : err.cause;
    }
    await follow(dctx, id);

    const calls: Call[] = [];
    for await (const call of allCalls(api, { campaign_id: id }, { signal: ctx.signal })) calls.push(call);
    // In the spreadsheet's order: the calls all started at once, so time says little.
    const rowOf = new Map(input.contacts.map((x) => [x.phone_number, x.row]));
    const order = (call: Call) => rowOf.get(String(call.phone_number)) ?? Number.MAX_SAFE_INTEGER;
    calls.sort((a, b) => order(a) - order(b));
    ctx.info('');
    await printList(dctx, calls, resultColumns(ctx.io.columns('stdout')), { empty: 'No calls were placed.' });

    const out = flags.out ? resolve(ctx.cwd, flags.out) : join(await mkdtemp(join(tmpdir(), 'voicectl-demo-')), 'calls.csv');
    // The export engine is the one `call export` runs.
    const { runExport } = await import('../../export/run.js');
    const exported = await runExport(dctx, { filters: { campaign_id: id }, format: 'csv', out, concurrency: 4 });
    ctx.info('');
    step(`Wrote ${plural(exported.rows, 'call')} as CSV to ${out}${flags.out ? '' : ' (a new temporary directory)'}`);
    ctx.info(c.dim('Next: run `voicectl sandbox` and follow the export line it prints to try each step yourself, or `voicectl login` for the real service.'));
  } finally {
    await dctx.close();
    await sandbox.close();
    await rm(configDir, { recursive: true, force: true });
  }
}

/**
 * The user's context, pointed at the sandbox: its own key and address, an empty config
 * directory (the profile is never read), and no proxy (the sandbox is on loopback).
 */
function demoContext(ctx: Context, baseUrl: string, apiKey: string, configDir: string): Context {
  const env: Env = {};
  for (const [k, v] of Object.entries(ctx.env)) {
    if (k.startsWith('VOICECTL_') || /^(https?|no|all)_proxy$/i.test(k)) continue;
    env[k] = v;
  }
  env.VOICECTL_CONFIG_DIR = configDir;
  // The user's own clock, never another sandbox's (VOICECTL_SANDBOX_CLOCK in the shell is for that one).
  const d = new Context({ io: ctx.io, env, cwd: ctx.cwd, now: () => ctx.realNow(), sleep: (ms, signal) => ctx.realSleep(ms, signal), random: ctx.random, signal: ctx.signal });
  // The user's zone (--tz, VOICECTL_TZ, the profile's), read here: the demo's own context reads no profile.
  d.opts = { ...outputChoice(ctx), debug: ctx.opts.debug, baseUrl, apiKey, yes: true, input: false, tz: ctx.timeZone };
  return d;
}

/** The watch engine of `voicectl watch`: its live view on a terminal, progress lines on stderr otherwise. */
async function follow(ctx: Context, campaignId: string): Promise<void> {
  const [{ runWatch }, { getCampaign }, { listCalls }] = await Promise.all([
    import('../../watch/session.js'), import('../../api/campaigns.js'), import('../../api/calls.js'),
  ]);
  const api = await ctx.api();
  const view = await chooseView<Promise<WatchView>>(ctx, {
    json: async () => new ProgressLines(ctx),
    terminal: async () => new (await import('../../watch/view-terminal.js')).TerminalView(ctx, campaignId),
    plain: async () => new ProgressLines(ctx),
  });
  ctx.onClose(() => view.close());
  await runWatch(ctx, {
    campaign: (signal) => getCampaign(api, campaignId, { signal }),
    calls: (q, signal) => listCalls(api, { campaign_id: campaignId, since: q.since }, { limit: q.limit, offset: q.offset }, signal),
  }, view, { campaignId, intervalMs: POLL_MS, timeoutMs: WATCH_TIMEOUT_MS, failIf: [] });
}

function resultColumns(width: number | undefined) {
  // The summary gets what the other columns (about 75 characters) leave of the terminal.
  const summaryMax = Math.max(30, (width ?? 160) - 75);
  return [
    { header: 'NUMBER', key: 'phone_number' },
    { header: 'NAME', get: (call: Call) => call.contact?.name, max: 22 },
    { header: 'OUTCOME', get: (call: Call) => call.outcome ?? call.status, max: 22 },
    { header: 'DURATION', get: (call: Call) => duration(call.duration_seconds) },
    { header: 'SUMMARY', key: 'summary', max: summaryMax },
  ];
}
