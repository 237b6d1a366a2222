/**
 * When creating the agent fails in a way the person can fix from the wizard (a plan
 * limit, a field the service refused), say so in words and offer a way back instead of
 * ending the wizard.
 */
import { ApiError } from '../api/errors.js';
import type { Context } from '../context.js';
import { select } from '../io/prompter.js';

export type Recovery = 'language' | 'review' | 'retry' | 'quit';

/** Undefined when the error is not one the wizard can recover from (the caller rethrows it). */
export async function recoverFrom(ctx: Context, err: unknown, language: string | undefined): Promise<Recovery | undefined> {
  if (!(err instanceof ApiError) || err.kind !== 'http') return undefined;
  const c = ctx.errColor;
  ctx.info('');
  if (err.status === 402) {
    if (err.limit === 'language_not_allowed') {
      ctx.info(c.yellow(`Your plan does not include ${language ? `the language ${language}` : "this voice's language"}, so the service refused to create the agent.`));
      ctx.info(c.dim(`(${err.message})`));
      return select<Recovery>(ctx, 'What now?', [
        { value: 'language', name: 'Pick another language and voice' },
        { value: 'review', name: 'Go back to the review' },
        { value: 'quit', name: 'Quit without creating an agent' },
      ]);
    }
    if (err.limit === 'agent_limit_exceeded') {
      ctx.info(c.yellow('Your plan allows no more agents, so the service refused to create this one.'));
      ctx.info(c.dim(`(${err.message}) Delete an agent you no longer use (voicectl agent delete <agent>, in another terminal) and try again, or upgrade the plan.`));
      return select<Recovery>(ctx, 'What now?', [
        { value: 'retry', name: 'Try again (after deleting an agent elsewhere)' },
        { value: 'review', name: 'Go back to the review' },
        { value: 'quit', name: 'Quit without creating an agent' },
      ]);
    }
    ctx.info(c.yellow(`A limit of your plan stopped the agent from being created${err.limit ? ` (${err.limit})` : ''}: ${err.message}`));
    return select<Recovery>(ctx, 'What now?', [
      { value: 'review', name: 'Go back to the review and change something' },
      { value: 'retry', name: 'Try again' },
      { value: 'quit', name: 'Quit without creating an agent' },
    ]);
  }
  if (err.status === 400 || err.status === 409 || err.status === 422) {
    ctx.info(c.yellow(`The service refused the agent: ${err.message}`));
    return select<Recovery>(ctx, 'What now?', [
      { value: 'review', name: 'Go back to the review and change a field' },
      { value: 'quit', name: 'Quit without creating an agent' },
    ]);
  }
  return undefined;
}
