import type { Context } from '../../context.js';
import { SilentExit } from '../../errors.js';
import { runChecks, type CheckResult } from '../../doctor/checks.js';
import { forPeople, render } from '../../io/render.js';
import { terminalSafe } from '../../text/terminal-text.js';
import { noun } from '../../text/text.js';

/** A word as well as a colour: the status reads the same without colour or sight of it. */
const MARK: Record<CheckResult['status'], string> = { ok: '✓ ok  ', warn: '! warn', fail: '✗ FAIL', skip: '- skip' };

export default async function doctor(ctx: Context): Promise<void> {
  const c = ctx.color;
  const paint = { ok: c.green, warn: c.yellow, fail: c.red, skip: c.dim };
  const results = await runChecks(ctx, (r) => forPeople(ctx, () => {
    ctx.out(`${paint[r.status](MARK[r.status])}  ${r.check.padEnd(13)} ${terminalSafe(ctx.redact(r.message), { multiline: true })}`);
    if (r.fix) ctx.out(`${' '.repeat(22)}${c.dim(`fix: ${terminalSafe(ctx.redact(r.fix), { multiline: true })}`)}`);
  }));
  await render(ctx, { json: results });
  const failed = results.filter((r) => r.status === 'fail').map((r) => r.check);
  const warned = results.filter((r) => r.status === 'warn').length;
  await forPeople(ctx, () => ctx.out(failed.length ? c.red(`${failed.length} failed, ${warned} ${noun(warned, 'warning')}.`) : `No problems${warned ? `; ${warned} ${noun(warned, 'warning')}` : ''}.`));
  if (failed.length > 0) {
    throw new SilentExit(1, { code: 'checks_failed', message: `doctor: ${failed.join(', ')} failed`, details: { failed } });
  }
}
