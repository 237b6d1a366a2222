/** The review screen: every answer at once, then create, change one field, or cancel. */
import type { Context } from '../context.js';
import { select } from '../io/prompter.js';
import { terminalLine as safe } from '../text/terminal-text.js';
import { oneLine, truncate } from '../text/text.js';
import type { Draft } from './questions.js';
import type { VoiceCatalog } from './voices.js';

export const STEPS = ['language', 'voice_name', 'name', 'greeting', 'call_purpose', 'prompt', 'tools', 'kb_item_ids', 'direction'] as const;
export type Step = (typeof STEPS)[number];

export const LABELS: Record<Step, string> = {
  language: 'Language',
  voice_name: 'Voice',
  name: 'Name',
  greeting: 'Greeting',
  call_purpose: 'Call purpose',
  prompt: 'Prompt',
  tools: 'Tools',
  kb_item_ids: 'Documents',
  direction: 'Direction',
};

const PROMPT_LINES = 6;

function show(ctx: Context, draft: Draft, step: Step, catalog: VoiceCatalog, docNames: Map<string, string>): string[] {
  const dim = ctx.errColor.dim;
  switch (step) {
    case 'language': {
      if (draft.language) return [catalog.labelOf(draft.language) ?? draft.language];
      const fromVoice = catalog.labelOf(catalog.languageOf(draft.voice_name));
      return [dim(fromVoice ? `${fromVoice}, the voice's language` : "the voice's language")];
    }
    case 'voice_name': {
      const v = catalog.find(draft.voice_name);
      const lines = [`${safe(draft.voice_name ?? '')}${v?.supports_code_switching ? dim('  ⇄ code-switching') : ''}`];
      if (typeof v?.demo_url === 'string') lines.push(dim(`demo: ${safe(v.demo_url)}`));
      return lines;
    }
    case 'prompt': {
      const lines = (draft.prompt ?? '').split('\n').map(safe);
      const shown = lines.slice(0, PROMPT_LINES);
      if (lines.length > PROMPT_LINES) shown.push(dim(`… ${lines.length - PROMPT_LINES} more lines`));
      return shown;
    }
    case 'tools':
      return [draft.tools?.length ? safe(draft.tools.join(', ')) : dim('none')];
    case 'kb_item_ids':
      if (!draft.kb_item_ids?.length) return [dim('none')];
      return draft.kb_item_ids.map((id) => (docNames.get(id) ? `${safe(docNames.get(id)!)}${dim(`  ${safe(id)}`)}` : safe(id)));
    case 'direction':
      return [safe(draft.direction ?? 'outbound')];
    default: {
      const v = draft[step];
      return [typeof v === 'string' ? safe(v) : ''];
    }
  }
}

export function renderReview(ctx: Context, draft: Draft, catalog: VoiceCatalog, docNames: Map<string, string>): void {
  const c = ctx.errColor;
  const width = Math.max(...STEPS.map((s) => LABELS[s].length));
  ctx.info('');
  ctx.info(c.bold('Review the new agent'));
  for (const step of STEPS) {
    const [first, ...rest] = show(ctx, draft, step, catalog, docNames);
    ctx.info(`  ${c.bold(LABELS[step].padEnd(width))}  ${first ?? ''}`);
    for (const line of rest) ctx.info(`  ${' '.repeat(width)}  ${line}`);
  }
  ctx.info('');
}

export type ReviewAction = 'create' | 'change' | 'cancel';

export async function reviewAction(ctx: Context): Promise<ReviewAction> {
  return select<ReviewAction>(ctx, 'Create this agent?', [
    { value: 'create', name: 'Create the agent' },
    { value: 'change', name: 'Go back and change a field' },
    { value: 'cancel', name: 'Cancel (create nothing)' },
  ]);
}

/** The field to change, or undefined to go back to the review unchanged. */
export async function chooseField(ctx: Context, draft: Draft, catalog: VoiceCatalog, docNames: Map<string, string>): Promise<Step | undefined> {
  const summary = (s: Step) => {
    const lines = show(ctx, draft, s, catalog, docNames);
    return truncate(oneLine(s === 'prompt' || s === 'kb_item_ids' ? lines.join(' ') : lines[0] ?? ''), 50);
  };
  const choices: Array<{ value: Step | 'back'; name: string }> = STEPS
    // Without languages in the voice list there is nothing to choose a language from.
    .filter((s) => s !== 'language' || catalog.languages().length > 0)
    .map((s) => ({ value: s, name: `${LABELS[s].padEnd(13)} ${ctx.errColor.dim(summary(s))}` }));
  choices.push({ value: 'back', name: 'Back to the review' });
  const picked = await select<Step | 'back'>(ctx, 'Which field?', choices, { pageSize: choices.length });
  return picked === 'back' ? undefined : picked;
}

