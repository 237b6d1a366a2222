import type { Context } from '../../context.js';
import type { Campaign } from '../../api/campaigns.js';
import { printObject, type Column } from '../../io/output.js';
import { withSpinner } from '../../io/progress.js';
import { campaignColumns, countLines, statusCounts } from './fields.js';
import { readCampaign } from '../../campaigns/read.js';
import { agentLabel, agentNames } from '../../agents/names.js';
import { render } from '../../io/render.js';
import { isTerminal } from '../../io/terminal.js';
import { isoInZone } from '../../util/time.js';

const FIELDS: Column<Campaign>[] = [
  { header: 'id', key: 'id' },
  { header: 'name', key: 'name' },
  { header: 'status', key: 'status' },
  { header: 'agent', get: (c) => (c.agent_id === null ? '(deleted)' : c.agent_id) },
];

/** The agent's name beside its id, for a person (agentNames). */
function withAgentName(agents: Map<string, string>): Column<Campaign>[] {
  return FIELDS.map((f) => (f.header !== 'agent' ? f : {
    header: 'agent',
    get: (c: Campaign) => {
      const label = agentLabel(c.agent_id, agents);
      return c.agent_id && label !== c.agent_id ? `${label} (${c.agent_id})` : label;
    },
  }));
}
/** Shown when the service sent them; times in the user's zone, named (JSON and CSV keep the service's UTC). */
function optional(zone: string): Column<Campaign>[] {
  const at = (key: 'created_at' | 'launched_at' | 'completed_at') => (c: Campaign) => {
    const shown = isoInZone(c[key], zone);
    return shown === c[key] ? shown : `${shown} ${zone}`;
  };
  return [
    { header: 'prompt', key: 'campaign_prompt' },
    { header: 'kb items', key: 'kb_item_ids' },
    { header: 'created', key: 'created_at', get: at('created_at') },
    { header: 'launched', key: 'launched_at', get: at('launched_at') },
    { header: 'completed', key: 'completed_at', get: at('completed_at') },
  ];
}

export default async function campaignGet(ctx: Context, id: string): Promise<void> {
  const api = await ctx.api();
  const campaign = await withSpinner(ctx, 'Fetching the campaign', () => readCampaign(api, id, ctx.signal));
  await render(ctx, {
    json: campaign,
    csv: { columns: campaignColumns(), rows: [campaign] },
    human: async () => {
      const agents = campaign.agent_id ? await agentNames(api, ctx.signal) : new Map<string, string>();
      const shown = [...withAgentName(agents), ...optional(ctx.timeZone).filter((f) => present(campaign[f.key!]))];
      await printObject(ctx, campaign, shown);
      const counts = statusCounts(campaign.contacts_by_status);
      if (counts.length > 0) {
        ctx.out(ctx.color.bold('contacts'));
        for (const line of countLines(counts, { bars: isTerminal(ctx, 'stdout'), color: ctx.color })) ctx.out(line);
      }
      const next = nextStep(campaign);
      if (next) ctx.info(ctx.errColor.dim(next));
    },
  });
}

function present(v: unknown): boolean {
  return v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);
}

function nextStep(c: Campaign): string | undefined {
  switch (c.status) {
    case 'draft':
      return `Launch it: voicectl campaign launch ${c.id}`;
    case 'running':
      return `Follow it: voicectl watch ${c.id}`;
    case 'completed':
      return `Results: voicectl call export --campaign ${c.id} --out calls.csv`;
    default:
      return undefined;
  }
}
