/**
 * The plan for people (field by field, long text as a unified diff) and for scripts
 * (`--json`: the same steps as plain objects).
 */
import { structuredPatch } from 'diff';
import type { ChalkInstance } from 'chalk';
import { isResend, sendsRequest, type FieldChange, type Plan, type Step } from './steps.js';
import { plural } from '../text/text.js';

/** Hides secrets in a line shown to people; the verbs pass one that also knows the run's own key. */
export type Mask = (text: string) => string;

/**
 * Secrets a plan may carry without anyone meaning it to: a prompt file that holds an
 * environment dump or a pasted key, a URL with a token. Tokens with the prefixes
 * services give their keys, NAME=value where the name says secret (an environment
 * dump), and `"api_key": "…"`/`api_key: …` in JSON or YAML text. Ordinary words
 * ("ask for their password") are left alone.
 */
const KEY_LIKE: Array<[RegExp, string]> = [
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g, '***'],
  [/\b(?:sk|rk|pk)_(?:live|test|sandbox|prod)_[A-Za-z0-9]{6,}/g, '***'],
  [/\b(?:sk|rk)-[A-Za-z0-9_-]{20,}/g, '***'],
  [/\bwhsec_[A-Za-z0-9+/=_-]{6,}/g, '***'],
  [/\b(?:gh[opusr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16})/g, '***'],
  [/\b([A-Z][A-Z0-9_]*(?:KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIALS?))=([^\s\0]+)/g, '$1=***'],
  [/("[^"\n]*(?:api[_-]?key|secret|token|password)[^"\n]*"\s*:\s*")[^"\n]{4,}"/gi, '$1***"'],
  [/\b((?:x-)?api[_-]?key|secret[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret|webhook[_-]?secret)(\s*[:=]\s*)(?!\*\*\*)[^\s"',;]{6,}/gi, '$1$2***'],
];

export function maskKeyLike(text: string): string {
  let out = text;
  for (const [pattern, by] of KEY_LIKE) out = out.replace(pattern, by);
  return out;
}

/** Text longer than this, or on several lines, is shown as a diff rather than old → new. */
const SHORT_TEXT = 72;

export interface PlanSummary {
  create: number;
  update: number;
  upload: number;
  delete: number;
}

export function summarize(plan: Plan): PlanSummary {
  const s: PlanSummary = { create: 0, update: 0, upload: 0, delete: 0 };
  for (const step of plan.steps) {
    if (step.kind.startsWith('create-')) s.create++;
    else if (step.kind.startsWith('update-')) s.update++;
    else if (step.kind === 'upload-document') s.upload++;
    else if (step.kind.startsWith('delete-')) s.delete++;
  }
  return s;
}

export function pendingCount(plan: Plan): number {
  return plan.steps.filter(sendsRequest).length;
}

/** One line naming the step, as apply reports it too. */
export function stepTitle(step: Step): string {
  switch (step.kind) {
    case 'upload-document': return `upload document ${step.doc.local} → ${step.key} (${step.reason})`;
    case 'record-document': return `adopt document ${step.key} (${step.id})`;
    case 'create-webhook': return `create webhook ${step.handle} (${step.hook.url})${step.resend ? ': its earlier create was never answered' : ''}`;
    case 'update-webhook': return `update webhook ${step.handle} (${step.id})${step.adopt ? ', adopting it' : ''}`;
    case 'record-webhook': return `adopt webhook ${step.handle} (${step.id})`;
    case 'create-agent': return `create agent ${step.handle} ("${step.name}")${step.note ? `: ${step.note}` : ''}`;
    case 'update-agent': return `update agent ${step.handle} ("${step.name}", ${step.id})${step.adopt ? ', adopting it' : ''}`;
    case 'record-agent': return `adopt agent ${step.handle} ("${step.name}", ${step.id})`;
    case 'delete-agent': return `delete agent ${step.handle} ("${step.name ?? ''}", ${step.id})`;
    case 'delete-document': return `delete document ${step.key} (${step.id})`;
    case 'delete-webhook': return `delete webhook ${step.handle} (${step.id})`;
    case 'forget': return `forget ${step.section.replace(/s$/, '')} ${step.key} (${step.why})`;
    case 'move': return `rename handle ${step.section}.${step.from} → ${step.section}.${step.to} in the lock (recognised by ${step.by}; nothing is sent)`;
  }
}

function sign(step: Step): string {
  if (step.kind.startsWith('create-') || step.kind === 'upload-document') return '+';
  if (step.kind.startsWith('delete-')) return '-';
  if (step.kind.startsWith('update-')) return '~';
  return '=';
}

function show(value: unknown): string {
  if (value === undefined) return '(not set)';
  if (typeof value === 'string') return JSON.stringify(value);
  return JSON.stringify(value);
}

function isLong(v: unknown): v is string {
  return typeof v === 'string' && (v.includes('\n') || v.length > SHORT_TEXT);
}

function changeLines(change: FieldChange, c: ChalkInstance, created: boolean): string[] {
  if (created) {
    if (isLong(change.new)) return [`    ${change.field}: ${plural(change.new.split('\n').length, 'line')}, ${plural(change.new.length, 'character')}`];
    return [`    ${change.field}: ${show(change.new)}`];
  }
  if ((isLong(change.old) || isLong(change.new)) && (typeof change.old === 'string' || change.old === undefined)) {
    const patch = structuredPatch('account', 'files', `${change.old ?? ''}\n`, `${String(change.new)}\n`, '', '', { context: 2 });
    const lines = [`    ${change.field}:`];
    for (const hunk of patch.hunks) {
      lines.push(c.cyan(`      @@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`));
      for (const l of hunk.lines) {
        if (l.startsWith('\\')) continue;
        lines.push(l.startsWith('+') ? c.green(`      ${l}`) : l.startsWith('-') ? c.red(`      ${l}`) : `      ${l}`);
      }
    }
    return lines;
  }
  return [`    ${change.field}: ${c.red(show(change.old))} → ${c.green(show(change.new))}`];
}

export function renderPlan(plan: Plan, c: ChalkInstance, mask: Mask = maskKeyLike): string[] {
  return planLines(plan, c).map(mask);
}

function planLines(plan: Plan, c: ChalkInstance): string[] {
  const lines: string[] = [];
  for (const step of plan.steps) {
    const s = sign(step);
    const color = s === '+' ? c.green : s === '-' ? c.red : s === '~' ? c.yellow : c.dim;
    lines.push(color(`${s} ${stepTitle(step)}`));
    if (step.kind === 'update-agent' || step.kind === 'update-webhook') {
      for (const ch of step.changes) lines.push(...changeLines(ch, c, false));
    } else if (step.kind === 'create-agent') {
      for (const [field, value] of Object.entries(step.body.fields)) lines.push(...changeLines({ field, new: value }, c, true));
      if (step.body.documents) lines.push(`    documents: ${show(step.body.documents)}`);
    }
  }
  for (const note of plan.notes) lines.push(c.dim(`note: ${note}`));
  const s = summarize(plan);
  const pending = pendingCount(plan);
  if (pending === 0) lines.push(plan.steps.length ? 'No changes to the account (the lock file will be brought up to date).' : 'No changes: the account matches the files.');
  else lines.push(`Plan: ${s.create} to create, ${s.update} to update, ${s.upload} to upload, ${s.delete} to delete.`);
  return lines;
}

/** What `plan` warns about: the lock's own warnings, and the creates apply will not send again without a yes. */
export function planWarnings(plan: Plan): string[] {
  const resends = plan.steps.filter(isResend).map((step) => {
    const what = step.kind === 'create-agent' ? `agents.${step.handle}: the account has no agent named "${step.name}"` : `webhooks.${step.handle}: the account shows no endpoint for ${step.hook.url}`;
    return `${what}, but an earlier apply sent its create and stopped before the answer: it may still arrive. apply does not send it again without --resend-pending.`;
  });
  return [...plan.warnings, ...resends];
}

/** Every string in a JSON value, masked. */
function maskDeep(value: unknown, mask: Mask): unknown {
  if (typeof value === 'string') return mask(value);
  if (Array.isArray(value)) return value.map((v) => maskDeep(v, mask));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskDeep(v, mask)]));
  return value;
}

/** The steps for `--json`: no local absolute paths, no internal shapes, no secrets. */
export function planJson(plan: Plan, mask: Mask = maskKeyLike): Record<string, unknown> {
  return maskDeep(planObject(plan), mask) as Record<string, unknown>;
}

function planObject(plan: Plan): Record<string, unknown> {
  const steps = plan.steps.map((step) => {
    const base: Record<string, unknown> = { action: step.kind, summary: stepTitle(step) };
    if ('id' in step && step.id) base.id = step.id;
    if ('handle' in step) base.handle = step.handle;
    if ('key' in step) base.key = step.key;
    if (step.kind === 'move') Object.assign(base, { section: step.section, from: step.from, to: step.to });
    if (step.kind === 'update-agent' || step.kind === 'update-webhook') base.changes = step.changes;
    if (step.kind === 'create-agent') base.fields = { ...step.body.fields, ...(step.body.documents ? { documents: step.body.documents } : {}) };
    if (step.kind === 'upload-document') base.reason = step.reason;
    return base;
  });
  return { changes_pending: pendingCount(plan), summary: summarize(plan), steps, notes: plan.notes, warnings: planWarnings(plan), left_in_account: plan.left };
}
