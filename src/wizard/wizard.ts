/**
 * The agent wizard: asks for each field the flags did not give, shows everything for
 * review, then creates the agent. Ctrl-C (or Cancel) at any point creates nothing. A plan
 * limit leads back into the wizard rather than out.
 */
import { createAgent, type Agent, type AgentFields } from '../api/agents.js';
import { checkAgentFields } from '../agents/validate.js';
import type { Context } from '../context.js';
import { InterruptedError, SilentExit } from '../errors.js';
import { withSpinner } from '../io/progress.js';
import { recoverFrom } from './create-errors.js';
import { askDocuments, offerToDeleteUploads, type UploadedDoc } from './kb-step.js';
import { askDirection, askLanguage, askPrompt, askText, askTools, askVoice, draftFrom, type Draft } from './questions.js';
import { chooseField, renderReview, reviewAction, STEPS, type Step } from './review.js';
import { VoiceCatalog } from './voices.js';

class Wizard {
  /** Languages the service refused with a 402 in this session. */
  private readonly refused = new Set<string>();
  /** Knowledge-base id → path, for the review. */
  private readonly docNames = new Map<string, string>();
  /** Files uploaded from the wizard: if it ends without an agent, they are named and may be deleted. */
  readonly uploaded: UploadedDoc[] = [];

  constructor(private readonly ctx: Context, private readonly draft: Draft, private readonly catalog: VoiceCatalog) {}

  async ask(step: Step): Promise<void> {
    const { ctx, draft, catalog } = this;
    switch (step) {
      case 'language': {
        const before = draft.language ?? catalog.languageOf(draft.voice_name);
        const language = await askLanguage(ctx, catalog, before, this.refused);
        if (language !== undefined) draft.language = language;
        // A voice of another language would not speak this one.
        if (draft.voice_name && language && catalog.voicesFor(language).length > 0 && !catalog.voicesFor(language).some((v) => v.voice_name === draft.voice_name)) {
          draft.voice_name = await askVoice(ctx, catalog, language, undefined);
        }
        return;
      }
      case 'voice_name':
        draft.voice_name = await askVoice(ctx, catalog, draft.language, draft.voice_name);
        return;
      case 'name':
        draft.name = await askText(ctx, 'Name of the agent', draft.name);
        return;
      case 'greeting':
        draft.greeting = await askText(ctx, 'Greeting (what the agent says first)', draft.greeting);
        return;
      case 'call_purpose':
        draft.call_purpose = await askText(ctx, 'Call purpose (why it calls, in a sentence)', draft.call_purpose);
        return;
      case 'prompt':
        draft.prompt = await askPrompt(ctx, draft.prompt);
        return;
      case 'tools':
        draft.tools = await askTools(ctx, draft.tools);
        return;
      case 'kb_item_ids': {
        const ids = await askDocuments(ctx, draft.kb_item_ids, this.docNames, this.uploaded);
        if (ids !== undefined) draft.kb_item_ids = ids;
        return;
      }
      case 'direction':
        draft.direction = await askDirection(ctx, draft.direction);
    }
  }

  /** The first pass: every question whose field the flags (or --file) left open. */
  async firstPass(given: Draft): Promise<void> {
    for (const step of STEPS) {
      if (given[step] !== undefined) continue;
      // A voice given without a language: the service takes the voice's language.
      if (step === 'language' && given.voice_name !== undefined) continue;
      await this.ask(step);
    }
  }

  async pickAnotherLanguage(): Promise<void> {
    const lang = this.draft.language ?? this.catalog.languageOf(this.draft.voice_name);
    if (lang) this.refused.add(lang);
    if (this.catalog.languages().length === 0) {
      await this.ask('voice_name');
      return;
    }
    await this.ask('language');
    if (!this.catalog.voicesFor(this.draft.language).some((v) => v.voice_name === this.draft.voice_name)) await this.ask('voice_name');
  }

  /** Review, change, create; a recoverable failure leads back to the review. */
  async loop(): Promise<Agent> {
    const { ctx, draft, catalog } = this;
    let action = await this.review();
    for (;;) {
      if (action === 'cancel') throw new InterruptedError('Cancelled: no agent was created.');
      if (action === 'change') {
        const field = await chooseField(ctx, draft, catalog, this.docNames);
        if (field) await this.ask(field);
        action = await this.review();
        continue;
      }
      const fields: AgentFields = { ...draft, tools: draft.tools ?? [] };
      checkAgentFields(fields);
      try {
        const api = await ctx.api();
        return await withSpinner(ctx, 'Creating agent', () => createAgent(api, fields));
      } catch (err) {
        if (err instanceof InterruptedError || ctx.signal.aborted) throw err;
        const next = await recoverFrom(ctx, err, draft.language ?? catalog.languageOf(draft.voice_name));
        if (next === undefined) throw err;
        if (next === 'quit') {
          ctx.info('No agent was created.');
          await offerToDeleteUploads(ctx, this.uploaded);
          throw new SilentExit(5, { code: 'plan_limit', message: 'the plan does not allow this agent; no agent was created' });
        }
        if (next === 'retry') {
          action = 'create';
          continue;
        }
        if (next === 'language') await this.pickAnotherLanguage();
        action = await this.review();
      }
    }
  }

  private async review() {
    renderReview(this.ctx, this.draft, this.catalog, this.docNames);
    return reviewAction(this.ctx);
  }
}

/** Runs the wizard from the fields the flags gave to the created agent. */
export async function runWizard(ctx: Context, given: AgentFields): Promise<Agent> {
  let wizard: Wizard | undefined;
  try {
    const catalog = await withSpinner(ctx, 'Fetching voices', () => VoiceCatalog.load(ctx));
    wizard = new Wizard(ctx, draftFrom(given), catalog);
    await wizard.firstPass(draftFrom(given));
    return await wizard.loop();
  } catch (err) {
    if (err instanceof InterruptedError || ctx.signal.aborted) {
      const message = err instanceof InterruptedError && err.message.startsWith('Cancelled:') ? err.message : 'Cancelled: no agent was created.';
      if (wizard) await offerToDeleteUploads(ctx, wizard.uploaded);
      throw new InterruptedError(message);
    }
    throw err;
  }
}
