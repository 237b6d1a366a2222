/**
 * The launch tool: a launch goes ahead only with a person's approval of its exact plan.
 * Without one it answers the plan and its hash, and keeps the plan for `voicectl approve
 * HASH`; with one (used up by this launch) it launches through `voicectl campaign launch`.
 * With --approval-command, that command is the approver instead.
 */
import { spawn } from 'node:child_process';
import { makeLaunchPlan, type PlanRecord } from '../approvals/plan.js';
import { ApprovalStore } from '../approvals/store.js';
import type { Env } from '../context.js';
import type { VerbRunner } from './runner.js';
import { ToolFailure, type LaunchArgs, type ToolAnswer } from './tool-spec.js';
import { describe as describeError, exitCodeFor } from '../outcome.js';
import { plural } from '../text/text.js';

/** Contacts shown in a tool answer; `voicectl approve` shows the person the list. */
const CONTACTS_SHOWN = 20;

export interface LaunchDeps {
  runner: VerbRunner;
  env: Env;
  now: () => Date;
  approvalCommand?: string;
  cli(argv: Parameters<VerbRunner['run']>[0]): Promise<unknown>;
}

export async function launchTool(args: LaunchArgs, deps: LaunchDeps): Promise<ToolAnswer> {
  const record = await plan(args, deps);
  const store = new ApprovalStore(deps.env);
  let approved: boolean;
  if (deps.approvalCommand) {
    approved = await askCommand(deps.approvalCommand, record, deps.env);
    if (!approved) {
      return refusal(record, `The approver (--approval-command) did not approve launch plan ${record.hash}: nothing was launched.`);
    }
  } else {
    approved = store.consume(record.hash, deps.now());
    if (!approved) {
      store.savePending(record);
      return refusal(record, `Not launched: a person must approve this launch plan first. Ask them to run, in a terminal:\n  voicectl approve ${record.hash}\nthen call campaign_launch again with the same arguments. The approval is for this exact plan, once: a change to the contacts or the agent needs a new one.`);
    }
  }
  const campaign = await deps.cli(['campaign', 'launch', '--yes', ...(args.calling_hours ? [`--calling-hours=${args.calling_hours}`] : []),
    ...(args.ignore_calling_hours ? ['--ignore-calling-hours'] : []), { positional: args.campaign_id }]);
  return {
    structured: { outcome: 'launched', plan_hash: record.hash, campaign: campaign as Record<string, unknown> },
    text: `Launched campaign ${args.campaign_id}: dialing ${plural(record.plan.contacts.length, 'contact')} (plan ${record.hash}).`,
  };
}

async function plan(args: LaunchArgs, deps: LaunchDeps): Promise<PlanRecord> {
  const { ctx, release } = deps.runner.context();
  try {
    const api = await ctx.api();
    return await makeLaunchPlan(ctx, api, args.campaign_id, { calling_hours: args.calling_hours, ignore_calling_hours: args.ignore_calling_hours });
  } catch (err) {
    const { message, hint } = describeError(err);
    throw new ToolFailure(`error: ${ctx.redact(message)}${hint ? `\n${ctx.redact(hint)}` : ''}`, exitCodeFor(err));
  } finally {
    await ctx.close();
    release();
  }
}

function refusal(record: PlanRecord, message: string): ToolAnswer {
  const shown = { ...record.plan, contacts: record.plan.contacts.slice(0, CONTACTS_SHOWN), contacts_total: record.plan.contacts.length, calling_hours: record.findings };
  return {
    isError: true,
    structured: { outcome: 'approval_required', plan_hash: record.hash, plan: shown },
    text: `${message}\n\nPlan ${record.hash}:\n${JSON.stringify(shown, null, 2)}`,
  };
}

/**
 * A team's approver: the command runs in a shell with the plan as JSON on stdin and the
 * hash in VOICECTL_PLAN_HASH (and as its last argument); exit 0 approves this launch, once.
 */
function askCommand(command: string, record: PlanRecord, env: Env): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(`${command} ${record.hash}`, {
      shell: true,
      stdio: ['pipe', 'ignore', 'inherit'],
      env: { ...env, VOICECTL_PLAN_HASH: record.hash } as NodeJS.ProcessEnv,
    });
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
    child.stdin.on('error', () => {});
    child.stdin.end(`${JSON.stringify(record, null, 2)}\n`);
  });
}
