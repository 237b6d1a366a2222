/**
 * What `calls check` and `voicectl test` say: a rule × pass/fail/warn summary and each
 * failure with the turn around it for a person; Markdown for a pull request or a job
 * summary; JSON for scripts; and a JUnit file with one test case per rule and call.
 */
import type { Context } from '../context.js';
import { openAtomic } from '../util/atomic-file.js';
import { printTable } from '../io/output.js';
import { render } from '../io/render.js';
import { terminalLine, terminalSafe } from '../text/terminal-text.js';
import type { CheckResult, Failure } from './check.js';
import { noun } from '../text/text.js';

export interface ReportOptions {
  format?: 'md';
  junit?: string;
  /** The JUnit suite's name: "calls check", or the test suite's file. */
  title: string;
}

function checkJson(r: CheckResult): Record<string, unknown> {
  return {
    passed: r.errorFailures === 0,
    calls: r.calls,
    in_progress: r.inProgress,
    rules: r.rules.map((s) => ({ id: s.id, kind: s.kind, severity: s.severity, pass: s.pass, fail: s.fail, skip: s.skip })),
    failures: r.failures,
    results: r.verdicts,
    ...(r.harvested ? { harvested: r.harvested } : {}),
    ...('campaigns' in r ? { campaigns: (r as CheckResult & { campaigns: string[] }).campaigns } : {}),
  };
}

/** checkJson(r) as text, one failure and one result a line, without building it whole. */
function* jsonPieces(r: CheckResult): Generator<string> {
  const { failures, results, ...head } = checkJson(r) as { failures: unknown[]; results: unknown[] } & Record<string, unknown>;
  yield '{\n';
  for (const [k, v] of Object.entries(head)) yield `  ${JSON.stringify(k)}: ${JSON.stringify(v, null, 2).replace(/\n/g, '\n  ')},\n`;
  for (const [name, list, last] of [['failures', failures, false], ['results', results, true]] as const) {
    yield `  "${name}": [`;
    for (let i = 0; i < list.length; i++) yield `${i ? ',' : ''}\n    ${JSON.stringify(list[i])}`;
    yield `${list.length ? '\n  ' : ''}]${last ? '' : ','}\n`;
  }
  yield '}';
}

export async function reportCheck(ctx: Context, r: CheckResult, options: ReportOptions): Promise<void> {
  if (options.junit) await writeJunit(options.junit, r, options.title);
  if (options.format === 'md') {
    ctx.out(markdown(r, options.title));
  } else {
    await render(ctx, { json: checkJson(r), jsonPieces: () => jsonPieces(r), human: () => human(ctx, r) });
  }
  const c = ctx.errColor;
  if (r.inProgress > 0) ctx.info(c.dim(`${r.inProgress} ${noun(r.inProgress, 'call')} still in progress: not checked.`));
  if (r.harvested) ctx.info(`${r.harvested.added} ${noun(r.harvested.added, 'number')} added to ${r.harvested.file} (${r.harvested.total} in all).`);
  if (options.junit) ctx.info(c.dim(`JUnit written to ${options.junit}.`));
  const warns = r.failures.length - r.errorFailures;
  if (r.calls === 0) ctx.warn('No finished call matched: nothing was checked. Check the campaign ids or the times.');
  if (r.errorFailures > 0) ctx.info(c.red(`${r.errorFailures} error-severity ${noun(r.errorFailures, 'failure')}${warns ? `, ${warns} ${noun(warns, 'warning')}` : ''} over ${r.calls} ${noun(r.calls, 'call')}.`));
  else ctx.info(c.green(`Passed: ${r.calls} ${noun(r.calls, 'call')} checked${warns ? `, ${warns} ${noun(warns, 'warning')}` : ''}.`));
}

async function human(ctx: Context, r: CheckResult): Promise<void> {
  const c = ctx.color;
  const rows = r.rules.map((s) => [
    s.id, s.kind, s.severity, String(s.pass),
    s.severity === 'error' ? (s.fail ? c.red(String(s.fail)) : '0') : '0',
    s.severity === 'warn' ? (s.fail ? c.yellow(String(s.fail)) : '0') : '0',
    String(s.skip),
  ]);
  await printTable(ctx, ['RULE', 'KIND', 'SEVERITY', 'PASS', 'FAIL', 'WARN', 'SKIPPED'], rows);
  if (r.failures.length === 0) return;
  ctx.out();
  for (const f of r.failures) {
    const mark = f.severity === 'error' ? c.red('FAIL') : c.yellow('WARN');
    ctx.out(`${mark} ${terminalLine(f.rule)}  ${terminalLine(f.call_id)}${f.phone_number ? `  ${terminalLine(f.phone_number)}` : ''}`);
    ctx.out(`     ${terminalLine(f.message ?? '')}`);
    for (const t of f.context) {
      const line = `${t.offending ? '>' : ' '} ${String(t.index + 1).padStart(3)} ${t.role.padEnd(5)} ${terminalSafe(t.text).replace(/\s+/g, ' ')}`;
      ctx.out(`    ${t.offending ? c.bold(line) : c.dim(line)}`);
    }
  }
}

function mdCell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ').replace(/`/g, '\'');
}

export function markdown(r: CheckResult, title: string): string {
  const lines = [`### ${r.errorFailures === 0 ? '✅' : '❌'} ${mdCell(title)}: ${r.calls} ${noun(r.calls, 'call')} checked`, ''];
  lines.push('| rule | kind | severity | pass | fail | warn | skipped |', '|---|---|---|---:|---:|---:|---:|');
  for (const s of r.rules) {
    lines.push(`| ${mdCell(s.id)} | ${s.kind} | ${s.severity} | ${s.pass} | ${s.severity === 'error' ? s.fail : 0} | ${s.severity === 'warn' ? s.fail : 0} | ${s.skip} |`);
  }
  if (r.failures.length) {
    lines.push('', '#### Failures', '');
    for (const f of r.failures.slice(0, 200)) lines.push(...mdFailure(f));
    if (r.failures.length > 200) lines.push(`… and ${r.failures.length - 200} more (see --json or --junit).`);
  }
  return lines.join('\n');
}

function mdFailure(f: Failure): string[] {
  const out = [`- **${f.severity === 'error' ? 'FAIL' : 'WARN'}** \`${mdCell(f.rule)}\` on \`${mdCell(f.call_id)}\`${f.phone_number ? ` (${mdCell(f.phone_number)})` : ''}: ${mdCell(f.message ?? '')}`];
  for (const t of f.context) out.push(`  ${t.offending ? '> **' : '> '}${t.role}: ${mdCell(t.text)}${t.offending ? '**' : ''}`);
  return out;
}

function xml(s: string): string {
  // Characters XML 1.0 cannot hold at all are dropped; the rest escaped.
  return s.replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Written in pieces, whole or not at all: ten thousand calls make a large file. */
async function writeJunit(path: string, r: CheckResult, title: string): Promise<void> {
  const file = await openAtomic(path);
  try {
    let chunk = '';
    for (const line of junitLines(r, title)) {
      chunk += `${line}\n`;
      if (chunk.length > 65_536) {
        if (!file.stream.write(chunk)) await new Promise<void>((resolve) => file.stream.once('drain', () => resolve()));
        chunk = '';
      }
    }
    file.stream.write(chunk);
    await file.commit();
  } catch (err) {
    await file.discard();
    throw err;
  }
}

/** One <testsuite> per rule, one <testcase> per call; a warning is a passing case that says so. */
function* junitLines(r: CheckResult, title: string): Generator<string> {
  const failures = new Map(r.failures.map((f) => [`${f.call_id}\u0000${f.rule}`, f]));
  const byRule = new Map<string, typeof r.verdicts>();
  for (const v of r.verdicts) {
    const list = byRule.get(v.rule) ?? [];
    list.push(v);
    byRule.set(v.rule, list);
  }
  const totalFail = r.errorFailures;
  const totalSkip = r.rules.reduce((n, s) => n + s.skip, 0);
  yield '<?xml version="1.0" encoding="UTF-8"?>';
  yield `<testsuites name="${xml(title)}" tests="${r.verdicts.length}" failures="${totalFail}" skipped="${totalSkip}">`;
  for (const s of r.rules) {
    const cases = byRule.get(s.id) ?? [];
    const fails = s.severity === 'error' ? s.fail : 0;
    yield `  <testsuite name="${xml(s.id)}" tests="${cases.length}" failures="${fails}" skipped="${s.skip}">`;
    yield `    <properties><property name="kind" value="${s.kind}"/><property name="severity" value="${s.severity}"/></properties>`;
    for (const v of cases) {
      const open = `    <testcase classname="${xml(s.id)}" name="${xml(v.call_id)}"`;
      if (v.verdict === 'pass') {
        yield `${open}/>`;
      } else if (v.verdict === 'skip') {
        yield `${open}><skipped message="${xml(v.message ?? '')}"/></testcase>`;
      } else {
        const f = failures.get(`${v.call_id}\u0000${v.rule}`);
        const body = f ? f.context.map((t) => `${t.offending ? '>' : ' '} ${t.index + 1} ${t.role}: ${t.text}`).join('\n') : '';
        if (s.severity === 'error') yield `${open}><failure message="${xml(v.message ?? 'failed')}" type="${s.kind}">${xml(body)}</failure></testcase>`;
        else yield `${open}><system-out>${xml(`WARN ${v.message ?? ''}\n${body}`)}</system-out></testcase>`;
      }
    }
    yield '  </testsuite>';
  }
  yield '</testsuites>';
}
