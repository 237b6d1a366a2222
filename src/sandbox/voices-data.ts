/**
 * The voice catalogue: voices in every default-plan language, and a few outside it so
 * language_not_allowed can be met. Ids are fixed so they survive restarts.
 */
import { Rng } from './rng.js';

export interface VoiceDef {
  id: string;
  voice_name: string;
  language_code: string;
  language_name: string;
  gender: 'female' | 'male';
  supports_code_switching: boolean;
  description: string;
}

const RAW: Array<[string, string, string, 'female' | 'male', boolean, string]> = [
  ['Ananya', 'en-IN', 'English (India)', 'female', true, 'Warm, clear; switches to Hindi mid-sentence'],
  ['Aarav', 'en-IN', 'English (India)', 'male', true, 'Friendly, conversational'],
  ['Priya', 'hi-IN', 'Hindi', 'female', true, 'Calm; handles Hinglish naturally'],
  ['Kabir', 'hi-IN', 'Hindi', 'male', true, 'Confident, energetic'],
  ['Meera', 'ta-IN', 'Tamil', 'female', true, 'Soft-spoken, patient'],
  ['Karthik', 'ta-IN', 'Tamil', 'male', false, 'Formal, measured'],
  ['Lakshmi', 'te-IN', 'Telugu', 'female', true, 'Bright, welcoming'],
  ['Ravi', 'te-IN', 'Telugu', 'male', false, 'Deep, reassuring'],
  ['Kavya', 'kn-IN', 'Kannada', 'female', true, 'Cheerful, quick'],
  ['Arjun', 'kn-IN', 'Kannada', 'male', false, 'Steady, professional'],
  ['Nila', 'ml-IN', 'Malayalam', 'female', true, 'Gentle, articulate'],
  ['Vivek', 'ml-IN', 'Malayalam', 'male', false, 'Crisp, businesslike'],
  ['Sakshi', 'mr-IN', 'Marathi', 'female', true, 'Friendly, direct'],
  ['Omkar', 'mr-IN', 'Marathi', 'male', false, 'Relaxed, warm'],
  ['Ishita', 'bn-IN', 'Bengali', 'female', true, 'Expressive, warm'],
  ['Sourav', 'bn-IN', 'Bengali', 'male', false, 'Composed, clear'],
  ['Hetal', 'gu-IN', 'Gujarati', 'female', true, 'Lively, polite'],
  ['Dhruv', 'gu-IN', 'Gujarati', 'male', false, 'Even, trustworthy'],
  ['Emma', 'en-US', 'English (US)', 'female', false, 'Upbeat, neutral American'],
  ['James', 'en-US', 'English (US)', 'male', false, 'Relaxed American'],
  ['Olivia', 'en-GB', 'English (UK)', 'female', false, 'Polished British'],
  ['Oliver', 'en-GB', 'English (UK)', 'male', false, 'Calm British'],
  ['Harpreet', 'pa-IN', 'Punjabi', 'female', true, 'Energetic; mixes Punjabi and Hindi'],
  ['Subhashree', 'or-IN', 'Odia', 'female', false, 'Gentle, clear'],
  ['Camille', 'fr-FR', 'French', 'female', false, 'Parisian, friendly'],
  ['Lucia', 'es-ES', 'Spanish (Spain)', 'female', false, 'Castilian, bright'],
  ['Layla', 'ar-AE', 'Arabic (UAE)', 'female', true, 'Gulf Arabic with English'],
];

export const VOICES: VoiceDef[] = RAW.map(([name, code, languageName, gender, cs, description]) => ({
  id: new Rng(`voice:${name}`).uuid(),
  voice_name: name,
  language_code: code,
  language_name: languageName,
  gender,
  supports_code_switching: cs,
  description,
}));

const byName = new Map(VOICES.map((v) => [v.voice_name.toLowerCase(), v]));
const byId = new Map(VOICES.map((v) => [v.id, v]));

export function voiceByName(name: string): VoiceDef | undefined {
  return byName.get(name.toLowerCase());
}

export function voiceById(id: string): VoiceDef | undefined {
  return byId.get(id);
}
