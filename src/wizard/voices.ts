/**
 * The voice catalogue as the wizard needs it: the languages the voices offer, the voices
 * of one language, and what a voice's language is. GET /voices is fetched once.
 */
import { listVoices, voiceLanguage, type Voice } from '../api/voices.js';
import type { Context } from '../context.js';
import { terminalLine } from '../text/terminal-text.js';

export interface LanguageInfo {
  code: string;
  /** A readable name when the voices carry one (language_name); else the code. */
  label: string;
  voices: number;
}

export class VoiceCatalog {
  private constructor(readonly voices: Voice[], readonly error?: string) {}

  static async load(ctx: Context): Promise<VoiceCatalog> {
    try {
      const api = await ctx.api({ auth: false });
      return new VoiceCatalog(await listVoices(api));
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      return new VoiceCatalog([], (err as Error).message);
    }
  }

  /** In the order the service lists them (it tends to put the common ones first). */
  languages(): LanguageInfo[] {
    const byCode = new Map<string, LanguageInfo>();
    for (const v of this.voices) {
      const code = voiceLanguage(v);
      if (!code) continue;
      const info = byCode.get(code) ?? { code, label: terminalLine(code), voices: 0 };
      const name = v.language_name ?? v.language_label;
      // Labels are only shown (the code is what is sent): the service's text, escaped.
      if (typeof name === 'string' && name && info.label === code) info.label = terminalLine(`${name} · ${code}`);
      info.voices++;
      byCode.set(code, info);
    }
    return [...byCode.values()];
  }

  labelOf(code: string | undefined): string | undefined {
    if (!code) return undefined;
    return this.languages().find((l) => l.code.toLowerCase() === code.toLowerCase())?.label ?? code;
  }

  /** The voices of a language; a bare "hi" matches every region of Hindi. */
  voicesFor(code: string | undefined): Voice[] {
    if (!code) return this.voices;
    const want = code.toLowerCase();
    return this.voices.filter((v) => {
      const lang = voiceLanguage(v)?.toLowerCase();
      return lang === want || (lang !== undefined && lang.startsWith(`${want}-`));
    });
  }

  find(voiceName: string | undefined): Voice | undefined {
    if (!voiceName) return undefined;
    return this.voices.find((v) => v.voice_name.toLowerCase() === voiceName.toLowerCase());
  }

  languageOf(voiceName: string | undefined): string | undefined {
    const v = this.find(voiceName);
    return v ? voiceLanguage(v) : undefined;
  }
}
