import type { Context } from '../../context.js';
import { FailureError, UsageError } from '../../errors.js';
import { readFlagFile, readKeys, readPlan } from './options.js';
import { note, render } from '../../io/render.js';
import type { SandboxFlags } from './definition.js';
import { plural } from '../../text/text.js';
import { writeFileAtomic } from '../../util/atomic-file.js';
import { fsErrorReason, isFsError } from '../../util/fs-error.js';
import { sandboxClockEnvValue } from '../../util/sandbox-clock.js';
import { formatDateTime, zoneAbbreviation } from '../../util/time.js';

type Options = SandboxFlags;

export default async function sandboxStart(ctx: Context, opts: Options): Promise<void> {
  const keys = opts.keys ? await readKeys(opts.keys) : undefined;
  const plan = opts.plan ? await readPlan(opts.plan) : undefined;
  // The emulator is only needed by this command, `demo` and tests.
  const { startSandbox, PortInUseError, parseDegrade, describeDegrade } = await import('../../sandbox/index.js');
  let learned;
  let learnedFacts: Record<string, unknown> | undefined;
  if (opts.learn) {
    const { learn, LearnError } = await import('../../sandbox/index.js');
    // A folder, a FIFO or a device is refused with its reason; a JavaScript string holds about 512 MB at most.
    const text = await readFlagFile('--learn', opts.learn, { maxBytes: 500 * 1024 * 1024, signal: ctx.signal });
    try {
      const r = learn(text, opts.learn);
      learned = r.rates;
      learnedFacts = { file: opts.learn, calls: r.rates.calls, skipped: r.skipped, connect_rate: Math.round(r.rates.overall.connect * 1000) / 1000, countries: Object.keys(r.rates.countries) };
      note(ctx, `Learned from ${plural(r.rates.calls, 'call')} in ${opts.learn}${r.skipped ? ` (${plural(r.skipped, 'line')} skipped: not a finished call)` : ''}: connect rate ${Math.round(r.rates.overall.connect * 100)}%, countries ${Object.keys(r.rates.countries).join(', ') || 'none with 20 calls or more'}.`);
    } catch (err) {
      if (err instanceof LearnError) throw new UsageError(`--learn ${err.message}`);
      throw err;
    }
    if (opts.learnedOut) {
      try {
        await writeFileAtomic(opts.learnedOut, `${JSON.stringify(learned, null, 2)}\n`);
      } catch (err) {
        if (isFsError(err)) throw new UsageError(`--learned-out ${opts.learnedOut} cannot be written: ${fsErrorReason(err)}.`);
        throw err;
      }
    }
  } else if (opts.learnedOut) {
    throw new UsageError('--learned-out needs --learn FILE: it writes what was learned.');
  }
  let degrade;
  try {
    degrade = (opts.degrade ?? []).map(parseDegrade);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { StateFileError } = await import('../../sandbox/state.js');
  let sandbox;
  try {
    sandbox = await startSandbox({
      port: opts.port,
      host: opts.host,
      timeScale: opts.timeScale,
      seed: opts.seed,
      keys,
      plan,
      stateFile: opts.state,
      allowLocalWebhooks: opts.allowLocalWebhooks,
      latencyMs: opts.latency,
      degrade,
      learned,
      startAt: opts.start,
      log: (line) => ctx.warn(line),
    });
  } catch (err) {
    if (err instanceof StateFileError) throw new UsageError(err.message);
    if (err instanceof PortInUseError) throw new FailureError(err.message);
    throw err;
  }
  ctx.onClose(() => sandbox.close());

  const c = ctx.errColor;
  const org = sandbox.world.keys.get(sandbox.apiKey)?.org;
  const { now, scale } = { now: sandbox.world.clock.now(), scale: sandbox.world.clock.scale };
  const clockValue = sandboxClockEnvValue(now, Date.now(), scale);
  const ownClock = scale !== 1 || opts.start !== undefined;
  const exportLine = `export VOICECTL_BASE_URL=${sandbox.url} VOICECTL_API_KEY=${sandbox.apiKey}${ownClock ? ` VOICECTL_SANDBOX_CLOCK='${clockValue}'` : ''}`;
  // A script gets what the export line holds: the clock too, to follow it before the sandbox's first answer.
  const json = {
    base_url: sandbox.url, api_key: sandbox.apiKey, org, port: sandbox.port, time_scale: scale,
    ...(opts.start ? { started_at: opts.start } : {}), ...(ownClock ? { sandbox_clock: clockValue } : {}),
    ...(learnedFacts ? { learned: learnedFacts } : {}),
  };
  await render(ctx, { json, layout: 'compact', human: () => {
    ctx.info(`${c.green('Sandbox running')} at ${c.bold(sandbox.url)}`);
    const facts = [
      opts.timeScale !== 1 ? `time ${opts.timeScale}x` : 'real time',
      opts.start ? `started at ${formatDateTime(Date.parse(opts.start), ctx.timeZone, { minutes: true })} ${zoneAbbreviation(ctx.timeZone, Date.parse(opts.start))}` : '',
      `seed ${sandbox.world.seed}`,
      opts.state ? `state in ${opts.state}` : 'state in memory',
      opts.latency ? `latency ${opts.latency} ms` : '',
      opts.allowLocalWebhooks ? 'local webhooks allowed' : '',
      ...degrade.map((r) => `degraded: ${describeDegrade(r)}`),
    ].filter(Boolean);
    ctx.info(c.dim(`  ${facts.join(' · ')}`));
    for (const k of keys ?? []) {
      const cap = k.daily_dispatch_cap === undefined ? '' : `, cap ${k.daily_dispatch_cap}/day`;
      ctx.info(c.dim(`  key ${k.key}: org ${k.org}, ${k.scopes.length ? k.scopes.join(' ') : 'no scopes'}${cap}`));
    }
    ctx.info(`Full-scope key for organization ${org}. Paste this into another shell:`);
    ctx.out(exportLine);
    ctx.info(c.dim('Press Ctrl-C to stop.'));
  } });

  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) return resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await sandbox.close();
  note(ctx, 'Sandbox stopped.');
}
