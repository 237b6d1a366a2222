/**
 * The create-and-launch tail of `campaign create` and `campaign redial`: the parts as
 * planned campaigns through the one workflow (`createCampaigns`), a line per step for the
 * person watching, and, when the workflow stops, one account of what was created, what is
 * still a draft, what is unknown and the command that finishes the work, then the error.
 */
import type { ApiClient } from '../../api/client.js';
import type { Campaign, CampaignDraft } from '../../api/campaigns.js';
import { CampaignsStopped, createCampaigns, type CampaignResult, type PlannedCampaign } from '../../campaigns/create-campaigns.js';
import type { InputContact } from '../../campaigns/input.js';
import { toWire } from '../../campaigns/input.js';
import { launchError } from '../../campaigns/launch-flow.js';
import { plural, shellQuote } from '../../text/text.js';
import { mapRejection } from '../../campaigns/rejection.js';
import { partName } from '../../contacts/report.js';
import type { Context } from '../../context.js';
import { printList, printObject, type Column } from '../../io/output.js';
import { render } from '../../io/render.js';
import { withSpinner } from '../../io/progress.js';
import { isObject } from '../../util/is-object.js';

export interface Part {
  /** 0-based position in the split. */
  index: number;
  draft: CampaignDraft;
  contacts: InputContact[];
}

/** One part per chunk, named "NAME (i/n)" when there are several, each with what every part shares. */
export function partsOf(name: string, chunks: InputContact[][], base: Omit<CampaignDraft, 'name' | 'contacts'>): Part[] {
  return chunks.map((contacts, index) => ({ index, contacts, draft: { name: partName(name, index, chunks.length), ...base, contacts: contacts.map(toWire) } }));
}

export interface CreateRun {
  /** How many parts the whole list makes (some may have been created by an earlier run). */
  parts: number;
  todo: Part[];
  fileName: string;
  where(row: number): string;
  /** The command that creates parts from `n` (1-based) on. */
  resume(fromPart: number): string;
  /** With --launch: waits for calling hours before the first launch. */
  gate?: { wait(): Promise<void> };
}

/** Creates the parts (and launches them behind the gate), then prints them; on a stop, says what happened and throws. */
export async function createAndLaunch(ctx: Context, api: ApiClient, run: CreateRun): Promise<void> {
  const c = ctx.errColor;
  const partOf = new Map<PlannedCampaign, Part>();
  const plan = run.todo.map((p) => {
    const planned: PlannedCampaign = { draft: p.draft, launch: run.gate !== undefined };
    partOf.set(planned, p);
    return planned;
  });
  let gated = false;
  const work = () => createCampaigns(api, plan, {
    created: (p, id) => {
      if (run.parts > 1) ctx.info(c.green(`✓ Created "${p.draft.name}" (${id}): ${plural(partOf.get(p)!.contacts.length, 'contact')}.`));
    },
    beforeLaunch: async () => {
      if (!gated) await run.gate?.wait();
      gated = true;
    },
    launched: (p, id) => {
      ctx.info(c.green(`✓ Launched "${p.draft.name}" (${id}): dialing ${plural(partOf.get(p)!.contacts.length, 'contact')}.`));
    },
  }, { resume: (at) => run.resume(partOf.get(at.planned)!.index + 1) });
  let results: CampaignResult[];
  try {
    // A spinner would fight with the lines of several parts and with the calling-hours countdown.
    results = run.todo.length === 1 && !run.gate ? await withSpinner(ctx, 'Creating the campaign', work) : await work();
  } catch (err) {
    if (!(err instanceof CampaignsStopped)) throw err;
    throw stopped(ctx, err, run, partOf);
  }
  await printCreated(ctx, results, partOf, run.gate !== undefined);
}

/** Says once what the stop left behind; returns the error to exit with. */
function stopped(ctx: Context, s: CampaignsStopped, run: CreateRun, partOf: Map<PlannedCampaign, Part>): unknown {
  const c = ctx.errColor;
  const failed = partOf.get(s.at.planned)!;
  if (s.at.step === 'launch') {
    const launched = s.done.filter((r) => r.launched);
    if (launched.length > 0) ctx.info(`Launched: ${launched.map((r) => `"${r.planned.draft.name}" (${r.id})`).join(', ')}.`);
    if (s.unknown) ctx.warn(`the request to launch "${failed.draft.name}" (${s.at.id}) got no answer, so it may or may not be dialing. Check with \`voicectl campaign get ${s.at.id}\` before launching it again.`);
    ctx.info('Created but not launched (drafts, nothing dialed):');
    for (const d of s.drafts) if (!(s.unknown && d.id === s.at.id)) ctx.info(`  "${d.planned.draft.name}"  ${d.id}    launch with: voicectl campaign launch ${d.id}`);
    return launchError(s.cause, s.at.id!);
  }
  const mapped = mapRejection(s.cause, failed.contacts, run.where, run.fileName);
  if (run.parts <= 1) {
    if (s.unknown) {
      ctx.warn(`the request to create "${failed.draft.name}" got no answer, so it may or may not have been created. `
        + 'Check `voicectl campaign list` before running the command again, so it is not created twice.');
    }
    return mapped;
  }
  const n = failed.index + 1;
  ctx.info(c.red(`Part ${n} of ${run.parts} ("${failed.draft.name}") ${s.unknown ? 'may or may not have been created (the request got no answer)' : 'was not created'}; parts after it were not attempted.`));
  const earlier = failed.index - s.done.length;
  if (s.done.length > 0 || earlier > 0) {
    ctx.info('Already created (do not create them again):');
    if (earlier > 0) ctx.info(`  parts 1 to ${earlier}, in an earlier run`);
    for (const x of s.done) ctx.info(`  ${x.planned.draft.name}  ${x.id}`);
  }
  if (s.unknown) {
    ctx.info(`Check \`voicectl campaign list\` for "${failed.draft.name}".`);
    ctx.info(n < run.parts ? `If it is there, finish with:\n  ${run.resume(n + 1)}` : 'If it is there, every part has been created.');
    ctx.info(`If it is not, finish with:\n  ${s.resume}`);
  } else {
    ctx.info(`When the problem is fixed, create the rest with:\n  ${s.resume}`);
  }
  return mapped;
}

interface CreatedRow {
  id: string;
  name: string;
  status: string;
  /** How many contacts were sent: the service's campaign object does not say. */
  contacts: number;
}

const ROW_COLUMNS: Column<CreatedRow>[] = [
  { header: 'id', key: 'id' },
  { header: 'name', key: 'name' },
  { header: 'status', key: 'status' },
  { header: 'contacts', key: 'contacts' },
];

async function printCreated(ctx: Context, results: CampaignResult[], partOf: Map<PlannedCampaign, Part>, launched: boolean): Promise<void> {
  const objects = results.map((r) => {
    const created = (r.campaign ?? {}) as Campaign;
    if (!launched) return created;
    return isCampaign(r.launch_result) ? r.launch_result : { ...created, status: created.status === 'draft' || created.status === undefined ? 'running' : created.status };
  });
  // One row source for the table and for -o csv: what was created, as a person reads it.
  const rows: CreatedRow[] = results.map((r, i) => ({
    id: r.id,
    name: (objects[i]!.name as string | undefined) ?? r.planned.draft.name,
    status: (objects[i]!.status as string | undefined) ?? (launched ? 'running' : 'draft'),
    contacts: partOf.get(r.planned)!.contacts.length,
  }));
  await render(ctx, {
    json: objects.length === 1 ? objects[0] : objects,
    lines: objects,
    csv: { columns: ROW_COLUMNS, rows },
    human: async () => {
      if (rows.length === 1) {
        if (!launched) ctx.info(ctx.errColor.green(`✓ Created campaign "${rows[0]!.name}" with ${plural(rows[0]!.contacts, 'contact')}. Nothing is dialed until it is launched.`));
        await printObject(ctx, rows[0]!, ROW_COLUMNS);
      } else {
        await printList(ctx, rows, ROW_COLUMNS);
      }
    },
  });
  const ids = results.map((r) => r.id);
  if (ids.length === 0) return;
  const next = ids.map((id) => (launched ? `voicectl watch ${id}` : `voicectl campaign launch ${id}`));
  ctx.info(ctx.errColor.dim(`Next: ${next.length === 1 ? next[0] : `\n  ${next.join('\n  ')}`}`));
}

function isCampaign(v: unknown): v is Record<string, unknown> & { id: string } {
  return isObject(v) && typeof v.id === 'string';
}

/** The flags of a resume command that create and redial share: exclusions, launch and hours, service and profile (never the key). */
export function sharedResumeArgs(ctx: Context, flags: {
  exclude?: string[]; excludeCalledWithin?: number; defaultExclude?: boolean;
  launch?: boolean; callingHours?: string; waitForCallingHours?: boolean; ignoreCallingHours?: boolean;
}, from: number): string[] {
  const args = ['--split', '--split-from', String(from)];
  for (const f of flags.exclude ?? []) args.push('--exclude', f);
  if (flags.excludeCalledWithin !== undefined) args.push('--exclude-called-within', `${Math.round(flags.excludeCalledWithin / 60_000)}m`);
  if (flags.defaultExclude === false) args.push('--no-default-exclude');
  if (flags.launch) args.push('--launch');
  if (flags.callingHours) args.push('--calling-hours', flags.callingHours);
  if (flags.waitForCallingHours) args.push('--wait-for-calling-hours');
  if (flags.ignoreCallingHours) args.push('--ignore-calling-hours');
  if (ctx.opts.baseUrl) args.push('--base-url', ctx.opts.baseUrl);
  if (ctx.opts.profile) args.push('--profile', ctx.opts.profile);
  if (ctx.opts.tz) args.push('--tz', ctx.opts.tz);
  return args;
}

export function commandLine(args: string[]): string {
  return args.map(shellQuote).join(' ');
}
