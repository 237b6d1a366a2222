/**
 * --dry-run: what would be sent. The JSON body (one object, or an array for several
 * parts; one per line with -o jsonl) for scripts and pipes; on a terminal, a summary
 * table a person can check at a glance.
 */
import type { Context } from '../../context.js';
import { printTable } from '../../io/output.js';
import type { Part } from './create-flow.js';
import { extraText } from './fields.js';
import { grouped, plural, truncate } from '../../text/text.js';
import { render } from '../../io/render.js';

const SAMPLE = 10;

export async function printDryRun(ctx: Context, parts: Part[], agentLabel: string, where: (row: number) => string): Promise<void> {
  const bodies = parts.map((p) => p.draft);
  await render(ctx, { json: bodies.length === 1 ? bodies[0] : bodies, lines: bodies, layout: 'pretty', terminalOnly: true, human: () => summary(ctx, parts, agentLabel, where) });
}

async function summary(ctx: Context, parts: Part[], agentLabel: string, where: (row: number) => string): Promise<void> {
  const bodies = parts.map((p) => p.draft);
  const first = bodies[0]!;
  ctx.out(`Would create ${parts.length === 1 ? `campaign "${first.name}"` : `${parts.length} campaigns`} for agent ${agentLabel}:`);
  if (first.campaign_prompt) ctx.out(`  campaign prompt: ${truncate(first.campaign_prompt, 80)}`);
  if (first.kb_item_ids?.length) ctx.out(`  knowledge base: ${first.kb_item_ids.join(', ')}`);
  ctx.out('');
  await printTable(ctx, ['NAME', 'CONTACTS', 'FROM', 'TO'], parts.map((p) => [
    p.draft.name, grouped(p.contacts.length), where(p.contacts[0]!.row), where(p.contacts.at(-1)!.row),
  ]));
  ctx.out('');
  const sample = parts[0]!.contacts.slice(0, SAMPLE);
  await printTable(ctx, [where(0).split(' ')[0]!.toUpperCase(), 'NUMBER', 'NAME', 'EXTRA'], sample.map((c) => [
    String(c.row), c.phone_number, truncate(c.name ?? '', 30), truncate(extraText(c.extra), 60),
  ]));
  const total = parts.reduce((n, p) => n + p.contacts.length, 0);
  if (total > sample.length) ctx.out(ctx.color.dim(`… and ${plural(total - sample.length, 'more contact')}. Pipe to a file or add --json for the full body.`));
}
