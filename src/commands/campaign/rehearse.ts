/**
 * `campaign run --rehearse`: the same run, played from start to end on a sandbox started
 * in this process (127.0.0.1, a free port), hours a second. The account is only read:
 * the agent is copied from it and the sandbox answers with its recent calls' rates (as
 * `sandbox --learn` would); nothing else is sent to it. The rehearsal keeps its own
 * journal, runs the guardrails as a real run does, and ends with the run's report and
 * the forecast beside what happened.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { resolveAgent, createAgent, type Agent, type AgentFields } from '../../api/agents.js';
import type { ApiClient } from '../../api/client.js';
import { allCalls } from '../../api/calls.js';
import { createCampaign } from '../../api/campaigns.js';
import { ApiError } from '../../api/errors.js';
import { listVoices, voiceLanguage } from '../../api/voices.js';
import { Context } from '../../context.js';
import { FailureError, GuardrailError, UsageError } from '../../errors.js';
import { printList } from '../../io/output.js';
import { withSpinner } from '../../io/progress.js';
import { forPeople, note, render } from '../../io/render.js';
import { duration, grouped, plural, shellQuote } from '../../text/text.js';
import { readCampaign, readContacts } from '../../campaigns/read.js';
import { forecast, type Forecast } from '../../campaigns/run/forecast.js';
import { newGuardrails, type GuardrailInput } from '../../campaigns/run/guardrails.js';
import { agentHistory, type AgentHistory } from '../../campaigns/run/history.js';
import { defaultJournalPath, JOURNAL_FORMAT, type Journal } from '../../campaigns/run/journal.js';
import { money } from '../../reports/rate-card.js';
import { forecastVsActual, rehearsalJournalPath, rehearsalScale, rehearsalSpanMs, type Measure, type RehearsalChoice } from '../../campaigns/run/rehearse.js';
import { startRun, type RunScreen } from '../../campaigns/run/session.js';
import { account, prepareRun, type RunPlan } from '../../campaigns/run/start.js';
import { when } from '../../campaigns/run/when.js';
import { isLoopbackHost } from '../../util/sandbox-clock.js';
import { spanOrUndefined } from './span.js';
import { runReportData, present, writeHtmlReport } from './report.js';
import { runScreen } from './run-screen.js';
import type { LearnedRates } from '../../sandbox/index.js';

/** The account's recent calls the rates are learned from: as many as a forecast reads, over the same month. */
const LEARN_MAX_CALLS = 5_000;
const LEARN_LOOK_BACK_MS = 30 * 86_400_000;

const PIPELINE_NOT_PROMPT = 'The sandbox\'s callers are personas that answer by the rates, not by what your agent says: a rehearsal tests the pipeline (windows, waves, caps, retries, guardrails, the journal and the report), not the prompt\'s quality.';

/** What the rehearsal took from the account (reads only), and what it says about it. */
interface FromAccount {
  agent?: Agent;
  history?: AgentHistory;
  learned?: LearnedRates;
  fromCampaign?: { name: string; contacts: Array<{ phone_number: string; name?: string; extra?: unknown }> };
  agentNote: string;
  ratesNote: string;
}

/** `plan`: the run as it would start (where the real run would keep its journal, what a person named); `choice`: --html. */
export async function rehearse(ctx: Context, plan: RunPlan, guard: GuardrailInput, choice: RehearsalChoice): Promise<void> {
  const realJournal = plan.journal ?? defaultJournalPath(plan.contacts.csv ?? plan.contacts.json, plan.fromCampaign);
  const path = rehearsalJournalPath(realJournal);
  clearEarlierRehearsal(path, realJournal);
  const started = Date.now();
  const real = await withSpinner(ctx, 'Reading the account (reads only)', () => readAccount(ctx, plan));

  // The emulator is loaded only for a rehearsal.
  const { startSandbox } = await import('../../sandbox/index.js');
  const { DEFAULT_PLAN } = await import('../../sandbox/world.js');
  const language = typeof real.agent?.language === 'string' ? real.agent.language : undefined;
  const startAt = ctx.realNow().getTime();
  const sandbox = await startSandbox({
    port: 0, host: '127.0.0.1', timeScale: 1, startAt, compress: false,
    ...(real.learned ? { learned: real.learned } : {}),
    plan: { languages: [...new Set([...DEFAULT_PLAN.languages, ...(language ? [language] : [])])] },
    log: (line) => ctx.warn(line),
  });
  // Simulated time passes only while the run waits: planning, requests and journal writes take none.
  const clock = sandbox.world.clock;
  clock.pause();
  const sim = rehearsalContext(ctx, sandbox.url, sandbox.apiKey, clock);
  try {
    const api = await sim.api();
    const agent = await copyAgent(sim, api, plan.agent, real);
    let fromCampaign = plan.fromCampaign;
    if (real.fromCampaign && agent) {
      const draft = await createCampaign(api, { name: real.fromCampaign.name, agent_id: agent.id, contacts: real.fromCampaign.contacts }, { signal: sim.signal });
      fromCampaign = draft.id;
    }
    const merged: RunPlan = { ...plan, journal: path, ...(agent ? { agent: agent.id } : {}), ...(fromCampaign !== undefined ? { fromCampaign } : {}) };
    const run = await withSpinner(ctx, 'Planning the rehearsal', () => prepareRun(sim, merged, spanOrUndefined, guard));
    if (real.history) {
      // The forecast, the wave length and the breaker's baseline come from the account, as a real run's do.
      run.history = real.history;
      run.journal.policy.wave_length_ms = real.history.wave_length_ms;
      run.journal.guardrails = newGuardrails(guard, real.history);
    }
    const now = sim.now().getTime();
    const scale = rehearsalScale(rehearsalSpanMs(run.journal, forecast(run.journal, run.history, now), now));
    clock.rescale(scale);

    const acc = account(ctx);
    const intro = [
      `Rehearsal on a sandbox inside voicectl at ${grouped(scale)}x (a day of waiting in ${waitText(86_400 / scale)}), its clock starting at ${when(startAt, ctx.timeZone)}: no call is placed${acc ? `, and nothing but reads was sent to ${acc.baseUrl}` : ''}.`,
      real.agentNote,
      real.ratesNote,
      ...(plan.exclusions.calledWithinMs !== undefined ? ['--exclude-called-within reads the sandbox\'s calls here, which are none: in a rehearsal it excludes no one.'] : []),
    ];
    for (const line of intro) note(ctx, line);

    let shown: Forecast | undefined;
    const inner = runScreen(sim);
    const screen: RunScreen = {
      async forecast(j, f, o) {
        shown = f;
        await inner.forecast(j, f, o);
      },
      // Nothing costs money: no one is asked.
      async confirm() {},
      started(p) {
        note(ctx, `Rehearsal journal: ${p} (a file of its own: the real run's is ${realJournal}). A rehearsal is not resumed: its sandbox ends with it.`);
      },
      async summary(j, p) {
        // The JSON is the rehearsal's, below: one document.
        await forPeople(ctx, () => inner.summary(j, p));
      },
      note: (line, emphasis) => inner.note(line, emphasis),
      resume: () => 'the same command with --rehearse, from the start (a rehearsal\'s sandbox ends with it)',
    };
    let stopped: GuardrailError | undefined;
    try {
      await startRun(sim, run, screen, { dryRun: false });
    } catch (err) {
      if (!(err instanceof GuardrailError)) throw err;
      stopped = err;
    }
    const journal = run.journal;
    const report = await withSpinner(ctx, 'Reading the rehearsal\'s report', () => runReportData(sim, path));
    if (choice.html !== undefined) await writeHtmlReport(sim, choice.html, report.shown);
    const rows = shown ? forecastVsActual(shown, journal, ctx.timeZone) : [];
    const realSeconds = Math.round((Date.now() - started) / 100) / 10;
    const facts = {
      journal: path,
      real_journal: realJournal,
      time_scale: scale,
      started_at: new Date(startAt).toISOString(),
      ended_at: sim.now().toISOString(),
      real_seconds: realSeconds,
      agent: { source: real.agent ? 'account' : 'stand-in', id: journal.agent_id, name: journal.agent_name ?? plan.agent },
      rates: real.learned ? { source: 'account', calls: real.learned.calls, connect_rate: Math.round(real.learned.overall.connect * 1000) / 1000 } : { source: 'sandbox defaults' },
      ...(stopped ? { stopped_by: { code: stopped.code, message: stopped.message } } : {}),
      notes: [...intro, PIPELINE_NOT_PROMPT],
    };
    await render(ctx, {
      json: { rehearsal: facts, state: journal.state, forecast: shown, forecast_vs_actual: rows, report: report.json },
      human: async () => {
        ctx.out('');
        await present(sim, {}, report.shown, report.json);
        ctx.out(ctx.color.bold('The forecast beside the rehearsal'));
        await printList(ctx, rows.map((r) => ({ measure: r.measure, forecast: shownValue(r, 'forecast', ctx.timeZone), rehearsal: shownValue(r, 'actual', ctx.timeZone), note: r.note ?? '' })), [
          { header: 'measure', key: 'measure' }, { header: 'forecast', key: 'forecast' }, { header: 'rehearsal', key: 'rehearsal' }, { header: 'note', key: 'note' },
        ]);
        ctx.info(`Rehearsed ${duration(Math.max(0, (sim.now().getTime() - startAt) / 1000))} of simulated time in ${realSeconds} s.`);
        ctx.info(PIPELINE_NOT_PROMPT);
        if (!stopped) ctx.info(ctx.errColor.dim('For the real run: the same command without --rehearse.'));
      },
    });
    if (stopped) {
      throw new GuardrailError(`In the rehearsal, ${stopped.message.replace(/^The answer-rate breaker paused the run/, 'the run was paused by the answer-rate breaker')}`, {
        code: stopped.code, details: stopped.details,
        hint: `A real run would pause here the same way (exit 7), to go on with --resume after a look. Check the baseline before the real run (--baseline-connect-rate, else the agent's history), or rehearse with --breaker warn to see the whole run. The rehearsal's journal: ${path}.`,
      });
    }
  } finally {
    await sim.close();
    await sandbox.close();
  }
}

/** What of the sandbox's clock a rehearsal drives. */
interface RehearsalClock {
  now(): number;
  readonly scale: number;
  pause(): void;
  resume(): void;
}

/**
 * A context on the sandbox: its address and key, the same streams, zone, profile and
 * Ctrl-C, and the sandbox's clock, read directly. The clock runs, at its scale, only
 * while something of the run sleeps.
 */
function rehearsalContext(ctx: Context, url: string, apiKey: string, clock: RehearsalClock): Context {
  // A sandbox clock of the user's own (VOICECTL_SANDBOX_CLOCK) is not this sandbox's.
  const env = { ...ctx.env, VOICECTL_SANDBOX_CLOCK: undefined, VOICECTL_BASE_URL: undefined, VOICECTL_API_KEY: undefined };
  let sleeping = 0;
  const sleep = async (ms: number, signal?: AbortSignal): Promise<void> => {
    if (sleeping++ === 0) clock.resume();
    try {
      // This machine's timer, whatever the caller's context sleeps on: the sandbox runs on real time.
      await wallSleep(Math.max(1, ms / clock.scale), signal);
    } finally {
      if (--sleeping === 0) clock.pause();
    }
  };
  const sim = new Context({ io: ctx.io, env, cwd: ctx.cwd, signal: ctx.signal, random: ctx.random, now: () => new Date(clock.now()), sleep });
  sim.opts = { ...ctx.opts, baseUrl: url, apiKey };
  sim.jsonErrors = ctx.jsonErrors;
  return sim;
}

function wallSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason);
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A rehearsal's journal from an earlier rehearsal is replaced; any other file of that
 * name (a real run's journal, a file of the user's) is never touched.
 */
function clearEarlierRehearsal(path: string, realJournal: string): void {
  if (!existsSync(path)) return;
  let earlier: Partial<Journal> | undefined;
  try {
    earlier = JSON.parse(readFileSync(path, 'utf8')) as Partial<Journal>;
  } catch {
    earlier = undefined;
  }
  let loopback = false;
  try {
    loopback = earlier?.format === JOURNAL_FORMAT && isLoopbackHost(new URL(earlier.account?.base_url ?? '').hostname);
  } catch {
    loopback = false;
  }
  if (!loopback) {
    throw new UsageError(`${path} exists and is not a rehearsal's journal, so the rehearsal will not write over it.`, {
      hint: `A rehearsal keeps its journal beside the run's (${realJournal}) with .rehearsal in its name: move that file, or pass --journal with another name.`,
    });
  }
  rmSync(path, { force: true });
}

/** Failures of the account that leave the rehearsal on a stand-in: no answer, a refused key, a server error. */
function unreachable(err: unknown): string | undefined {
  if (!(err instanceof ApiError)) return undefined;
  if (err.kind === 'network' || err.kind === 'timeout') return `${err.host} did not answer (${err.message})`;
  if (err.status === 401 || err.status === 403) return `${err.host} refused the key (HTTP ${err.status})`;
  if ((err.status ?? 0) >= 500) return `${err.host} failed (HTTP ${err.status})`;
  return undefined;
}

/** The agent, its history and the account's rates, by GET only; a stand-in when there is no account to read. */
async function readAccount(ctx: Context, plan: RunPlan): Promise<FromAccount> {
  const name = plan.agent ?? '';
  const standIn = (why: string): FromAccount => {
    if (plan.fromCampaign !== undefined) {
      throw new UsageError(`--from-campaign reads a draft of your account, and ${why}.`, { hint: 'Rehearse with the contacts file instead: --csv FILE or --contacts FILE.json.' });
    }
    return {
      agentNote: `Agent: a stand-in named "${name}" (${why}): the rehearsal checks the run, not that agent.`,
      ratesNote: 'Rates: the sandbox\'s defaults (no account to learn from).',
    };
  };
  const acc = account(ctx);
  if (!acc) return standIn(ctx.settings().baseUrl ? 'no API key is set' : 'no account is configured');
  if (!plan.agent) return standIn('no --agent was given');
  const api = await ctx.api();
  let agent: Agent;
  try {
    agent = await resolveAgent(api, plan.agent);
  } catch (err) {
    const why = unreachable(err);
    if (why === undefined) throw err;
    return standIn(why);
  }
  const out: FromAccount = {
    agent,
    agentNote: `Agent: a copy of "${agent.name}" (${agent.id}), read from ${acc.baseUrl}.`,
    ratesNote: '',
  };
  const now = ctx.now().getTime();
  try {
    out.history = await agentHistory(api, agent.id, now, ctx.signal);
    out.learned = await learnFromAccount(api, now, ctx.signal);
    out.ratesNote = out.learned
      ? `Rates: learned from your account's last ${plural(out.learned.calls, 'finished call')} (connect ${Math.round(out.learned.overall.connect * 100)}%${Object.keys(out.learned.countries).length ? `; by country for ${Object.keys(out.learned.countries).join(', ')}` : ''}), as sandbox --learn keeps them: distributions only.`
      : 'Rates: the sandbox\'s defaults (your account has no finished call in the last 30 days to learn from).';
  } catch (err) {
    const why = unreachable(err);
    if (why === undefined) throw err;
    out.ratesNote = `Rates: the sandbox's defaults (the account's calls could not be read: ${why}).`;
  }
  if (plan.fromCampaign !== undefined) {
    const draft = await readCampaign(api, plan.fromCampaign, ctx.signal);
    if (draft.status !== undefined && draft.status !== 'draft') {
      throw new FailureError(`Campaign ${plan.fromCampaign} is ${draft.status}, not a draft: its contacts have been dialed.`, {
        hint: `To call its unanswered contacts again: voicectl campaign redial ${shellQuote(plan.fromCampaign)}.`,
      });
    }
    const contacts = await readContacts(api, plan.fromCampaign, ctx.signal);
    out.fromCampaign = {
      name: typeof draft.name === 'string' ? draft.name : plan.fromCampaign,
      contacts: contacts.map((c) => ({ phone_number: c.phone_number, ...(c.name !== undefined ? { name: c.name } : {}), ...(c.extra !== undefined ? { extra: c.extra } : {}) })),
    };
  }
  return out;
}

/** The account's recent calls, as `sandbox --learn` reads an export: only their distributions are kept. */
async function learnFromAccount(api: ApiClient, now: number, signal: AbortSignal): Promise<LearnedRates | undefined> {
  const { learn, LearnError } = await import('../../sandbox/index.js');
  const lines: string[] = [];
  for await (const call of allCalls(api, { since: new Date(now - LEARN_LOOK_BACK_MS).toISOString() }, { max: LEARN_MAX_CALLS, signal })) {
    lines.push(JSON.stringify({ status: call.status, phone_number: call.phone_number, start_time: call.start_time, duration_seconds: call.duration_seconds, outcome: call.outcome }));
  }
  try {
    return learn(lines.join('\n'), 'the account\'s calls').rates;
  } catch (err) {
    if (err instanceof LearnError) return undefined;
    throw err;
  }
}

/** The agent on the sandbox: the account's copied (its fields the sandbox accepts), or a stand-in of that name. */
async function copyAgent(sim: Context, api: ApiClient, name: string | undefined, real: FromAccount): Promise<Agent | undefined> {
  if (name === undefined) return undefined; // prepareRun says --agent is required
  const voices = await listVoices(api);
  const a = real.agent;
  const lang = typeof a?.language === 'string' ? a.language : undefined;
  const voiceFor = (language: string | undefined) => (voices.find((v) => language !== undefined && voiceLanguage(v) === language) ?? voices[0])?.voice_name;
  if (!a) return createAgent(api, { name, voice_name: voiceFor(undefined), prompt: 'A stand-in for a rehearsal.' });
  const fields: AgentFields = { name: a.name, direction: 'outbound', status: 'active' };
  for (const k of ['language', 'voice_name', 'greeting', 'call_purpose', 'prompt'] as const) {
    if (typeof a[k] === 'string') fields[k] = a[k];
  }
  for (const k of ['tools', 'kb_item_ids'] as const) {
    const v = a[k];
    if (Array.isArray(v) && v.every((x) => typeof x === 'string')) fields[k] = v;
  }
  try {
    return await createAgent(api, fields);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 400) throw err;
    // Another service's voices, tools or languages: the copy keeps the name and the words, and speaks with a sandbox voice.
    const voice = voiceFor(lang);
    note(sim, `The sandbox did not take the agent's fields as they are (${err.message}); its copy speaks with the sandbox's voice ${voice}.`);
    const fallback: AgentFields = { name: a.name, voice_name: voice };
    for (const k of ['greeting', 'prompt'] as const) if (typeof a[k] === 'string') fallback[k] = a[k];
    return createAgent(api, fallback);
  }
}

/** A few real seconds, to a tenth below ten. */
function waitText(seconds: number): string {
  return seconds < 10 ? `${seconds.toFixed(1)} s` : duration(seconds);
}

/** A forecast or rehearsal value as a person reads it. */
function shownValue(r: Measure, side: 'forecast' | 'actual', zone: string): string {
  const v = r[side];
  if (v === null) return '—';
  if (r.kind === 'time') return when(Date.parse(String(v)), zone);
  if (r.kind === 'money') {
    const m = (n: number) => money(n, r.currency!, r.exponent!);
    return side === 'forecast' && r.forecast_high !== undefined ? `${m(Number(v))} to ${m(r.forecast_high)}` : m(Number(v));
  }
  return typeof v === 'number' ? grouped(v) : v;
}
