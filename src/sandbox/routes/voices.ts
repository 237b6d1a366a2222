/** GET /voices (public) and the voices' demo audio. */
import { HttpError, type Route } from '../router.js';
import { VOICES, voiceById, type VoiceDef } from '../voices-data.js';
import { demoWav } from '../wav.js';

function render(v: VoiceDef, baseUrl: string) {
  return { ...v, demo_url: `${baseUrl}/voices/${v.id}/demo.wav` };
}

export const voiceRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/voices',
    scope: null,
    handle(req) {
      const lang = req.query.get('language_code')?.trim().toLowerCase();
      // A bare language ("hi") matches every region of it.
      const match = (v: VoiceDef) => !lang || v.language_code.toLowerCase() === lang || v.language_code.toLowerCase().startsWith(`${lang}-`);
      return { status: 200, body: { voices: VOICES.filter(match).map((v) => render(v, req.baseUrl)) } };
    },
  },
  {
    method: 'GET',
    pattern: '/voices/:id/demo.wav',
    scope: null,
    handle(req) {
      const voice = voiceById(req.params.id!);
      if (!voice) throw new HttpError(404, `voice ${req.params.id} not found`, { code: 'not_found' });
      const wav = demoWav(VOICES.indexOf(voice));
      return { status: 200, body: wav, headers: { 'content-type': 'audio/wav', 'cache-control': 'public, max-age=86400' } };
    },
  },
];
