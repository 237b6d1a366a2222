/**
 * What a person sees of a campaign run, for the verbs that start one (`campaign run` and
 * `campaign redial --at-requested-time`): the forecast and its wave table, the
 * confirmation, where the journal is, and the summary. Every time in the user's zone.
 */
import { launchCost } from '../../campaigns/launch-flow.js';
import type { Context } from '../../context.js';
import { FailureError, UsageError } from '../../errors.js';
import { confirm } from '../../io/prompter.js';
import { printList } from '../../io/output.js';
import { render } from '../../io/render.js';
import { plural, wrap } from '../../text/text.js';
import { readingWidth } from '../../io/terminal.js';
import { countStates } from '../../campaigns/run/deps.js';
import { orphansOf } from '../../campaigns/run/status.js';
import { forecastLines, SMALL_WORDS, type Forecast } from '../../campaigns/run/forecast.js';
import { DEFAULT_WAVE_LENGTH_MS } from '../../campaigns/run/history.js';
import type { Journal } from '../../campaigns/run/journal.js';
import { guardrailsPlan } from '../../campaigns/run/guardrails.js';
import { placeOf } from '../../hours/phone-zones.js';
import type { RunScreen } from '../../campaigns/run/session.js';
import { when } from '../../campaigns/run/when.js';

export function runScreen(ctx: Context): RunScreen {
  const zone = ctx.timeZone;
  return {
    async forecast(j, f, o) {
      // Wrapped to the terminal (80 columns elsewhere): the zones and the reasons run long.
      const width = readingWidth(ctx);
      for (const line of forecastLines(f, j, zone)) for (const part of wrap(line, width)) ctx.info(part);
      if (o.noHistory) for (const part of wrap(`  (With no history a wave is expected to last ${DEFAULT_WAVE_LENGTH_MS / 60_000} min.)`, width)) ctx.info(ctx.errColor.dim(part));
      const table = async () => {
        if (f.waves.length > 0) {
          const why = f.waves.some((w) => w.small);
          await printList(ctx, f.waves.map((w) => ({ wave: w.n, at: when(Date.parse(w.at), zone), contacts: w.contacts, why: w.small ? SMALL_WORDS[w.small] : '' })), [
            { header: 'wave', key: 'wave' }, { header: 'released at', key: 'at' }, { header: 'contacts', key: 'contacts' },
            ...(why ? [{ header: 'fewer because', key: 'why' }] : []),
          ]);
        }
        const held = heldContacts(j);
        if (held.length > 0) {
          ctx.out('');
          await printList(ctx, held.map((c) => ({ ...c, not_before: when(Date.parse(c.not_before), zone), requested_as: c.requested_as ?? '' })), [
            { header: 'phone', key: 'phone_number' }, { header: 'name', key: 'name' }, { header: 'not before', key: 'not_before' }, { header: 'zone', key: 'zone' }, { header: 'asked', key: 'requested_as', max: 40 },
          ]);
        }
      };
      // A dry run's plan is its result; before a real run the plan is for the person watching.
      if (o.dryRun) {
        const held = heldContacts(j);
        const guardrails = guardrailsPlan(j);
        await render(ctx, { json: { name: j.name, agent_id: j.agent_id, policy: j.policy, forecast: f, ...(guardrails ? { guardrails } : {}), ...(held.length > 0 ? { held } : {}) }, human: table });
      } else await render(ctx, { terminalOnly: true, human: table });
    },

    async confirm(f: Forecast) {
      if (ctx.opts.yes) return;
      const what = `This run dials up to ${plural(f.contacts, 'contact')} in ${plural(f.waves.length, 'wave')}${f.expected_finish ? `, finishing about ${when(Date.parse(f.expected_finish), zone)}` : ''}: ${launchCost(ctx)}.`;
      if (!ctx.io.canPrompt()) {
        const why = ctx.io.whyNoPrompt();
        throw new UsageError(`${what} Pass --yes to confirm (${why}).`, { hint: 'Nothing was sent. Add --yes (or -y) to start the run; --dry-run shows the plan.' });
      }
      if (!(await confirm(ctx, `${what} Start?`, { flag: '--yes' }))) throw new FailureError('Cancelled: nothing was created or launched.');
    },

    started(path, resume) {
      ctx.info(`Journal: ${path} (continue after an interruption with: ${resume})`);
      ctx.info('voicectl releases each wave itself when its time comes: keep it running until the run ends, or continue it later with the command above. A released wave cannot be stopped (the API has no cancel); Ctrl-C only stops releasing more.');
    },

    async summary(j: Journal, path: string) {
      const summary = {
        journal: path,
        run_id: j.run_id,
        state: j.state,
        waves: j.waves.map((w) => ({ n: w.n, name: w.name, state: w.state, campaign_id: w.campaign_id, contacts: w.contacts.length, launched_at: w.launched_at })),
        contacts: countStates(j),
        dialed: j.contacts.reduce((n, c) => n + c.attempts, 0),
        ...orphansOf(j),
      };
      await render(ctx, {
        json: summary,
        human: async () => {
          await printList(ctx, summary.waves.map((w) => ({ ...w, campaign_id: w.campaign_id ?? '' })), [
            { header: 'wave', key: 'n' }, { header: 'campaign', key: 'campaign_id' }, { header: 'state', key: 'state' }, { header: 'contacts', key: 'contacts' },
          ]);
          const counts = Object.entries(summary.contacts).map(([k, v]) => `${v} ${k.replace('_', ' ')}`).join(', ');
          ctx.info(`Run ${j.state}: ${plural(summary.waves.length, 'wave')}, ${plural(summary.dialed, 'dial')}; contacts: ${counts}.`);
          for (const o of summary.orphans ?? []) ctx.info(ctx.errColor.yellow(`Wave ${o.wave}: ${o.note}`));
        },
      });
    },

    note(line, emphasis) {
      ctx.info(emphasis ? ctx.errColor.yellow(line) : line);
    },
  };
}

/** The waiting contacts held until a time they asked for (a callback run), for the plan. */
function heldContacts(j: Journal): Array<{ phone_number: string; name: string; not_before: string; zone: string; requested_as?: string }> {
  return j.contacts.filter((c) => c.state === 'waiting' && c.not_before !== undefined).map((c) => ({
    phone_number: c.phone_number,
    name: c.name ?? '',
    not_before: c.not_before!,
    zone: c.zone ?? placeOf(c.phone_number).zones.join(' '),
    ...(c.requested_as !== undefined ? { requested_as: c.requested_as } : {}),
  }));
}
