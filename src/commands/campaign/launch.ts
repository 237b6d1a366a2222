import type { Context } from '../../context.js';
import type { ApiClient } from '../../api/client.js';
import type { Campaign } from '../../api/campaigns.js';
import { ApiError } from '../../api/errors.js';
import { printObject, type Column } from '../../io/output.js';
import { withSpinner } from '../../io/progress.js';
import { gateCallingHours } from '../../hours/hours-gate.js';
import { UsageError } from '../../errors.js';
import { terminalLine } from '../../text/terminal-text.js';
import { pendingContacts } from './fields.js';
import { confirmLaunch, launch, notDraft } from '../../campaigns/launch-flow.js';
import { plural } from '../../text/text.js';
import { readCampaign, readContacts } from '../../campaigns/read.js';
import { render } from '../../io/render.js';
import type { LaunchFlags } from './definition.js';
import { hoursChoice } from './plans.js';
import { isObject } from '../../util/is-object.js';

export default async function campaignLaunch(ctx: Context, id: string, flags: LaunchFlags = {}): Promise<void> {
  const api = await ctx.api();
  const campaign = await lookUp(ctx, api, id);
  if (campaign?.status && campaign.status !== 'draft') throw notDraft(id, campaign.name, campaign.status);
  let dial: number | undefined;
  let gate: { wait(): Promise<void> } | undefined;
  if (flags.ignoreCallingHours) {
    dial = campaign ? pendingContacts(campaign) ?? await countPending(ctx, api, id) : undefined;
    gate = gateCallingHours(ctx, [], hoursChoice(flags));
  } else {
    const pending = await pendingNumbers(ctx, api, id);
    dial = pending.length;
    gate = gateCallingHours(ctx, pending, hoursChoice(flags));
  }
  await confirmLaunch(ctx, [{ id, name: campaign?.name, dial }]);
  await gate.wait();

  const res = await withSpinner(ctx, 'Launching', () => launch(ctx, api, id));
  const label = campaign?.name ? `"${terminalLine(campaign.name)}" (${id})` : id;
  ctx.info(ctx.errColor.green(`✓ Launched ${label}${dial !== undefined ? `: dialing ${plural(dial, 'contact')}` : ''}.`));
  const launched: Campaign = isCampaign(res) ? res : { ...campaign, id, status: 'running' };
  const fields: Column<Campaign & { dialing?: number }>[] = [
    { header: 'id', key: 'id' },
    { header: 'name', key: 'name' },
    { header: 'status', key: 'status' },
    { header: 'dialing', key: 'dialing' },
  ];
  await render(ctx, { json: launched, csv: { columns: fields, rows: [launched] }, human: () => printObject(ctx, { ...launched, dialing: dial }, fields) });
  ctx.info(ctx.errColor.dim(`Next: follow it live with \`voicectl watch ${id}\`; results with \`voicectl call export --campaign ${id}\`.`));
}

/**
 * The campaign before launching, for the confirmation. A key made only to launch may
 * lack calls:read: then the launch goes ahead with what is known (the id).
 */
async function lookUp(ctx: Context, api: ApiClient, id: string): Promise<Campaign | undefined> {
  try {
    return await withSpinner(ctx, 'Fetching the campaign', () => readCampaign(api, id, ctx.signal));
  } catch (err) {
    if (err instanceof ApiError && err.status === 403) {
      ctx.warn(`cannot read campaign ${id} to show what will be dialed (403: ${err.message}).`);
      return undefined;
    }
    throw err;
  }
}

/** The numbers the launch dials, for the calling-hours check, which cannot be made without them. */
async function pendingNumbers(ctx: Context, api: ApiClient, id: string): Promise<string[]> {
  try {
    const contacts = await withSpinner(ctx, 'Reading the contacts', () => readContacts(api, id, ctx.signal));
    return contacts.filter((c) => c.status === undefined || c.status === 'pending').map((c) => c.phone_number);
  } catch (err) {
    if (err instanceof ApiError && err.status === 403) {
      throw new UsageError(`Cannot check calling hours: this key cannot read the contacts of campaign ${id} (403: ${err.message}).`, {
        hint: 'Use a key with calls:read, or pass --ignore-calling-hours to launch without the check.',
      });
    }
    throw err;
  }
}

/** Pending contacts from the contact list, when the campaign came without counts. */
async function countPending(ctx: Context, api: ApiClient, id: string): Promise<number | undefined> {
  try {
    const contacts = await readContacts(api, id, ctx.signal);
    return contacts.filter((c) => c.status === undefined || c.status === 'pending').length;
  } catch {
    // Only the confirmation's count is lost; the launch itself does not need it.
    return undefined;
  }
}

function isCampaign(v: unknown): v is Campaign {
  return isObject(v) && typeof v.id === 'string';
}
