import type { ApiClient } from './client.js';
import { extractList } from './envelope.js';

export interface Voice {
  id?: string;
  voice_name: string;
  supports_code_switching?: boolean;
  demo_url?: string;
  language?: string;
  language_code?: string;
  [key: string]: unknown;
}

/** GET /voices is public: no key is sent. Its envelope is not shown in the spec. */
export async function listVoices(api: ApiClient, language?: string): Promise<Voice[]> {
  const body = await api.get('/voices', { anonymous: true, query: { language_code: language } });
  return extractList<Voice>(body, 'voices', api.url('/voices')).items;
}

/** The locale tag of a voice, whatever the server calls the field. */
export function voiceLanguage(v: Voice): string | undefined {
  for (const k of ['language', 'language_code', 'locale', 'lang']) {
    const val = v[k];
    if (typeof val === 'string' && val) return val;
  }
  const langs = v.languages;
  if (Array.isArray(langs) && typeof langs[0] === 'string') return langs[0];
  return undefined;
}
