/**
 * Saved profiles. Reads go straight to the JSON file (a plain read costs under a
 * millisecond, loading conf costs ~85 ms at start-up); writes go through conf, which
 * writes atomically and with mode 0600.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const PROFILE_KEYS = ['base_url', 'api_key', 'default_country', 'timeout'] as const;
export type ProfileKey = (typeof PROFILE_KEYS)[number];
export type Profile = Partial<Record<ProfileKey, string>>;

export interface ConfigFile {
  profiles?: Record<string, Profile>;
}

export function configDir(env: Record<string, string | undefined>): string {
  if (env.VOICECTL_CONFIG_DIR) return env.VOICECTL_CONFIG_DIR;
  const home = env.HOME ?? homedir();
  if (process.platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'voicectl', 'Config');
  if (process.platform === 'darwin') return join(home, 'Library', 'Preferences', 'voicectl');
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'voicectl');
}

export function configPath(env: Record<string, string | undefined>): string {
  return join(configDir(env), 'config.json');
}

/** The whole file, or an empty config when there is none yet. */
export function readConfig(env: Record<string, string | undefined>): ConfigFile {
  let text: string;
  try {
    text = readFileSync(configPath(env), 'utf8');
  } catch {
    return {};
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as ConfigFile) : {};
  } catch {
    return {};
  }
}

export function readProfile(env: Record<string, string | undefined>, name: string): Profile {
  return readConfig(env).profiles?.[name] ?? {};
}

/** Shows the last four characters of a key, never the key. */
export function maskKey(key: string | undefined): string {
  if (!key) return '';
  return key.length <= 4 ? '****' : `****${key.slice(-4)}`;
}
