import type { Context } from '../../context.js';
import { describePlan } from '../../approvals/plan.js';
import { ApprovalStore, APPROVAL_TTL_MS, isPlanHash } from '../../approvals/store.js';
import { FailureError, NotFoundError, UsageError } from '../../errors.js';
import { confirm } from '../../io/prompter.js';
import { terminalSafe } from '../../text/terminal-text.js';
import { plural } from '../../text/text.js';

export default async function approveVerb(ctx: Context, hash: string): Promise<void> {
  const wanted = hash.trim().toLowerCase();
  if (!isPlanHash(wanted)) throw new UsageError(`"${terminalSafe(hash)}" is not a plan hash: 32 hexadecimal digits, as campaign_launch answered them.`);
  // An assistant that can run commands could answer a prompt for itself; --yes would make that one flag.
  if (ctx.opts.yes) throw new UsageError('voicectl approve takes no --yes: a person approves a launch by answering at a terminal.');
  if (!ctx.io.canPrompt()) {
    throw new UsageError('voicectl approve needs a person at a terminal to answer, and there is none here.', {
      hint: 'Run it in a terminal. To approve launches some other way, start the server with --approval-command.',
    });
  }
  const store = new ApprovalStore(ctx.env);
  const record = store.pending(wanted);
  if (!record) {
    throw new NotFoundError(`No launch plan ${wanted} is waiting for approval.`, {
      hint: 'campaign_launch writes the plan when it answers the hash; ask for the launch again if the plan changed or was already used.',
    });
  }
  for (const line of describePlan(record, ctx.timeZone)) ctx.info(terminalSafe(line));
  const n = record.plan.contacts.length;
  const ok = await confirm(ctx, `Approve this launch? It dials ${plural(n, 'contact')}: real calls that use the account balance.`);
  if (!ok) throw new FailureError('Not approved: nothing will be launched.');
  store.approve(wanted, ctx.now());
  ctx.info(ctx.errColor.green(`✓ Approved plan ${wanted}: its next launch goes ahead, once, within ${APPROVAL_TTL_MS / 60_000} minutes.`));
}
