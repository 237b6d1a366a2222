import type { Context } from '../../context.js';
import { getCall, type Call } from '../../api/calls.js';
import { printObject } from '../../io/output.js';
import { transcriptTurns } from '../../export/transcript.js';
import { callFields } from './fields.js';
import { wrap } from './wrap.js';
import { terminalLine, terminalSafe } from '../../text/terminal-text.js';
import { render } from '../../io/render.js';
import { lineWidth } from '../../io/terminal.js';

export default async function callGet(ctx: Context, callId: string): Promise<void> {
  const api = await ctx.api();
  const { call, raw } = await getCall(api, callId, ctx.signal);
  // Machine output is the object exactly as the service sent it, transcript included.
  // CSV is for programs: its times stay UTC whatever --tz says.
  await render(ctx, { json: raw, csv: { columns: callFields('UTC'), rows: [call] }, human: () => showCall(ctx, call) });
}

async function showCall(ctx: Context, call: Call): Promise<void> {
  await printObject(ctx, call, callFields(ctx.timeZone));
  const turns = transcriptTurns(call);
  ctx.out();
  if (turns.length === 0) {
    ctx.out(ctx.color.dim('No transcript.'));
    return;
  }
  ctx.out(ctx.color.bold('Transcript'));
  const width = lineWidth(ctx);
  for (const turn of turns) {
    // The service's words, not ours: shown, never obeyed by the terminal.
    const t = { time: turn.time, speaker: terminalLine(turn.speaker), text: terminalSafe(turn.text, { multiline: true }) };
    const label = `${t.time ? `${t.time} ` : ''}${t.speaker}:`;
    const styled = `${t.time ? `${ctx.color.dim(t.time)} ` : ''}${t.speaker === 'Agent' ? ctx.color.cyan(`${t.speaker}:`) : ctx.color.green(`${t.speaker}:`)}`;
    const lines = wrap(t.text, width ? Math.max(20, width - label.length - 1) : undefined);
    ctx.out(`${styled} ${lines[0] ?? ''}`);
    for (const l of lines.slice(1)) ctx.out(`${' '.repeat(label.length + 1)}${l}`);
  }
}
