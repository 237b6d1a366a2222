/** One question per agent field. Each takes the draft's current value as its default. */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AgentFields } from '../api/agents.js';
import type { Context } from '../context.js';
import { readTextFile } from '../agents/text-file.js';
import { checkbox, editor, input, select, type SelectChoice } from '../io/prompter.js';
import { multiline } from './multiline.js';
import type { VoiceCatalog } from './voices.js';
import { terminalLine as safe, terminalSafe } from '../text/terminal-text.js';
import { noun } from '../text/text.js';

export const TOOLS = [
  { value: 'schedule_callback', description: 'book a time to call the person back' },
  { value: 'take_message', description: 'take a message for someone on your team' },
  { value: 'summarize_call', description: 'write a summary of the call when it ends' },
] as const;

/** Languages a 402 told us the plan does not include, shown but not choosable. */
export async function askLanguage(ctx: Context, catalog: VoiceCatalog, current: string | undefined, refused: Set<string>): Promise<string | undefined> {
  const languages = catalog.languages();
  if (languages.length === 0) return current;
  const choices: SelectChoice<string>[] = languages.map((l) => ({
    value: l.code,
    name: `${l.label} · ${l.voices} ${noun(l.voices, 'voice')}`,
    short: l.label,
    disabled: refused.has(l.code) ? 'not in your plan' : false,
  }));
  const fallback = choices.find((ch) => !ch.disabled)?.value;
  const preferred = current && !refused.has(current) ? current : fallback;
  return select(ctx, 'Language of the calls', choices, { default: preferred });
}

export async function askVoice(ctx: Context, catalog: VoiceCatalog, language: string | undefined, current: string | undefined): Promise<string> {
  const voices = catalog.voicesFor(language);
  if (voices.length === 0) {
    if (catalog.error) ctx.warn(`could not list the voices (${catalog.error}); type a voice name instead.`);
    return input(ctx, 'Voice name (see `voicectl voice list`)', { default: current, required: true });
  }
  const c = ctx.errColor;
  const choices: SelectChoice<string>[] = voices.map((v) => {
    // What is shown comes from the service: escaped; the value sent stays exact.
    const traits = [typeof v.gender === 'string' ? safe(v.gender) : undefined, v.supports_code_switching ? c.cyan('⇄ code-switching (mixed-language speech)') : undefined].filter(Boolean);
    const about = [typeof v.description === 'string' ? terminalSafe(v.description, { multiline: true }) : undefined, v.demo_url ? `Listen: ${safe(String(v.demo_url))}` : undefined].filter(Boolean);
    return { value: v.voice_name, name: `${safe(v.voice_name)}${traits.length ? `  ${traits.join(' · ')}` : ''}`, short: safe(v.voice_name), description: about.join('\n') || undefined };
  });
  const known = current && voices.some((v) => v.voice_name === current) ? current : undefined;
  const where = language ? ` for ${catalog.labelOf(language)}` : '';
  return select(ctx, `Voice${where}`, choices, { default: known });
}

export async function askText(ctx: Context, message: string, current: string | undefined): Promise<string> {
  const answer = await input(ctx, message, { default: current, required: true, validate: (v) => (v.trim() ? true : 'Please type something (Ctrl-C quits).') });
  return answer.trim();
}

type PromptSource = 'editor' | 'type' | 'file' | 'keep';

/** The prompt is long text: an editor when one is set, else typed or pasted here, or read from a file. */
export async function askPrompt(ctx: Context, current: string | undefined): Promise<string> {
  const editorName = ctx.env.VISUAL || ctx.env.EDITOR;
  const choices: SelectChoice<PromptSource>[] = [];
  if (current) choices.push({ value: 'keep', name: `Keep the current prompt (${preview(current)})` });
  if (editorName) choices.push({ value: 'editor', name: `Write it in ${editorName}` });
  choices.push({ value: 'type', name: 'Type or paste it here', description: editorName ? undefined : 'Tip: set $EDITOR (or $VISUAL) to write long text in your editor.' });
  choices.push({ value: 'file', name: 'Read it from a file' });
  const how = await select(ctx, 'Prompt, the agent\'s instructions: how will you write it?', choices);
  switch (how) {
    case 'keep':
      return current!;
    case 'editor': {
      // The person just chose the editor: open it now rather than asking for another Enter.
      const text = await editor(ctx, 'Prompt', { default: current, waitForUserInput: false, validate: (v) => (v.trim() ? true : 'The prompt is empty (press Enter to edit it again).') });
      return text.trim();
    }
    case 'file': {
      const path = await input(ctx, 'Path of the prompt file', { required: true, validate: readableFile(ctx.cwd) });
      return (await readTextFile(resolve(ctx.cwd, path.trim()), 'the prompt file', undefined, ctx.signal)).trim();
    }
    case 'type':
    default: {
      for (;;) {
        const text = await multiline(ctx, 'Prompt', { current });
        if (text.trim()) return text.trim();
        ctx.info(ctx.errColor.yellow('The prompt is empty; type at least one line.'));
      }
    }
  }
}

function readableFile(cwd: string) {
  return (value: string): true | string => {
    const path = value.trim();
    if (!path) return 'Type a path.';
    try {
      const s = statSync(resolve(cwd, path));
      if (!s.isFile()) return 'That is not a file.';
      if (s.size === 0) return 'That file is empty.';
      return true;
    } catch {
      return 'No such file.';
    }
  };
}

export async function askTools(ctx: Context, current: string[] | undefined): Promise<string[]> {
  const chosen = new Set(current ?? []);
  // Tools the service offers beyond these (the spec's list is not complete) stay chosen.
  const others = [...chosen].filter((t) => !TOOLS.some((k) => k.value === t));
  const picked = await checkbox(ctx, 'Tools the agent may use  (space to tick, enter to go on)', [
    ...TOOLS.map((t) => ({ value: t.value as string, name: `${t.value}  ${ctx.errColor.dim(t.description)}`, short: t.value, checked: chosen.has(t.value) })),
    ...others.map((t) => ({ value: t, name: safe(t), checked: true })),
  ]);
  return picked;
}

export async function askDirection(ctx: Context, current: string | undefined): Promise<string> {
  return select(ctx, 'Direction', [
    { value: 'outbound', name: 'outbound  the agent places calls (campaigns)', short: 'outbound' },
    { value: 'inbound', name: 'inbound   the agent answers calls to a phone number assigned to it', short: 'inbound' },
  ], { default: current ?? 'outbound' });
}

/** The first line of a long text, cut short, and how many lines it has. */
function preview(text: string, max = 50): string {
  const lines = text.split('\n');
  const first = lines.find((l) => l.trim())?.trim() ?? '';
  const cut = first.length > max ? `${first.slice(0, max - 1)}…` : first;
  return lines.length > 1 ? `${cut} … ${lines.length} lines` : cut;
}

/** The agent's fields as the wizard fills them in. */
export type Draft = AgentFields;

export function draftFrom(fields: AgentFields): Draft {
  return { ...fields };
}
