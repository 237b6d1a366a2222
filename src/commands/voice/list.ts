import type { Context } from '../../context.js';
import { listVoices, voiceLanguage, type Voice } from '../../api/voices.js';
import { printList } from '../../io/output.js';
import { withSpinner } from '../../io/progress.js';
import type { ListFlags } from './definition.js';

export default async function voiceList(ctx: Context, opts: ListFlags): Promise<void> {
  const api = await ctx.api({ auth: false });
  const voices = await withSpinner(ctx, 'Fetching voices', () => listVoices(api, opts.language));
  await printList<Voice>(ctx, voices, [
    { header: 'VOICE', key: 'voice_name' },
    { header: 'LANGUAGE', get: voiceLanguage, drop: 1 },
    { header: 'CODE-SWITCHING', get: (v) => (v.supports_code_switching ? 'yes' : 'no'), drop: 2 },
    { header: 'DEMO', key: 'demo_url', drop: 3 },
    { header: 'ID', key: 'id', id: true },
  ], { empty: opts.language ? `No voices for ${opts.language}.` : 'No voices.' });
}
