/**
 * `--fail-if` for CI: conditions such as `failed>5%`, `no_answer>=100` or
 * `completed<50%`, comma-separated. A name is a contact status (counted from the
 * campaign's contacts_by_status) or a call outcome (counted from the finished calls);
 * a percentage is of all the campaign's contacts. Parsed before any request, so a bad
 * expression is a usage error (exit 2).
 */

export type Operator = '>' | '>=' | '<' | '<=' | '=';

export interface Condition {
  /** The text as written, for messages. */
  source: string;
  name: string;
  op: Operator;
  value: number;
  percent: boolean;
}

/** The contact statuses of the spec: these names read contacts_by_status, never outcomes. */
export const CONTACT_STATUSES = ['pending', 'initiated', 'completed', 'no_answer', 'failed'] as const;

const CONDITION = /^([A-Za-z_][A-Za-z0-9_.-]*)\s*(>=|<=|==|=|>|<)\s*(\d+(?:\.\d+)?|\.\d+)\s*(%?)$/;

export class FailIfSyntaxError extends Error {}

/** Parses one or more comma-separated conditions; throws FailIfSyntaxError naming the bad part. */
export function parseFailIf(expr: string): Condition[] {
  const parts = expr.split(',').map((p) => p.trim());
  if (parts.every((p) => p === '')) throw new FailIfSyntaxError('the expression is empty; write for example failed>5% or no_answer>=100.');
  const conditions: Condition[] = [];
  for (const part of parts) {
    if (part === '') throw new FailIfSyntaxError(`"${expr}" has an empty condition between commas.`);
    const m = CONDITION.exec(part);
    if (!m) {
      throw new FailIfSyntaxError(
        `cannot read "${part}": write NAME OP NUMBER[%], where NAME is a contact status (${CONTACT_STATUSES.join(', ')}) or a call outcome and OP is one of > >= < <= =, for example failed>5% or no_answer>=100.`,
      );
    }
    const [, name, rawOp, rawValue, pct] = m;
    const value = Number(rawValue);
    const percent = pct === '%';
    if (percent && value > 100) throw new FailIfSyntaxError(`"${part}": a percentage cannot be above 100.`);
    conditions.push({ source: part, name: name!.toLowerCase(), op: (rawOp === '==' ? '=' : rawOp) as Operator, value, percent });
  }
  return conditions;
}

/** What a finished campaign looks like to the conditions. */
export interface FailIfFacts {
  /** The campaign's contacts_by_status. */
  contactsByStatus: Record<string, number>;
  /** Finished calls counted by outcome label. */
  outcomes: Record<string, number>;
  /** All the campaign's contacts: the base of percentages. */
  totalContacts: number;
}

export interface ConditionResult {
  condition: Condition;
  /** The count the condition read. */
  count: number;
  /** count as a percentage of all contacts (0 when there are none). */
  percent: number;
  /** Where the count came from. */
  source: 'status' | 'outcome';
  crossed: boolean;
}

export function evaluateFailIf(conditions: Condition[], facts: FailIfFacts): ConditionResult[] {
  return conditions.map((condition) => {
    // Own keys only: `constructor` is an outcome here, not a property every object has.
    const isStatus = (CONTACT_STATUSES as readonly string[]).includes(condition.name) || Object.hasOwn(facts.contactsByStatus, condition.name);
    const count = (isStatus ? own(facts.contactsByStatus, condition.name) : own(facts.outcomes, condition.name)) ?? 0;
    const percent = facts.totalContacts > 0 ? (count / facts.totalContacts) * 100 : 0;
    const actual = condition.percent ? percent : count;
    return { condition, count, percent, source: isStatus ? 'status' : 'outcome', crossed: compare(actual, condition.op, condition.value) };
  });
}

function own(counts: Record<string, number>, key: string): number | undefined {
  return Object.hasOwn(counts, key) ? counts[key] : undefined;
}

function compare(actual: number, op: Operator, limit: number): boolean {
  // Percentages are computed, so equality allows for floating-point noise.
  const eps = 1e-9;
  switch (op) {
    case '>': return actual > limit + eps;
    case '>=': return actual >= limit - eps;
    case '<': return actual < limit - eps;
    case '<=': return actual <= limit + eps;
    case '=': return Math.abs(actual - limit) <= eps;
  }
}

/** One line explaining a result: "failed>5%: failed is 7 (7.0% of 100 contacts)". */
export function describeResult(r: ConditionResult, totalContacts: number): string {
  const what = r.source === 'status' ? `${r.condition.name} contacts` : `calls with outcome ${r.condition.name}`;
  return `${r.condition.source}: ${what} = ${r.count} (${formatPercent(r.percent)} of ${totalContacts} contacts)`;
}

export function formatPercent(p: number): string {
  return `${(Math.round(p * 10) / 10).toFixed(1)}%`;
}
