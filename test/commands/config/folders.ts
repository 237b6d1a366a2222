/** A config folder of its own for each test of the `config` verbs, which run in process. */
import { join } from 'node:path';
import { expect } from 'vitest';
import { run } from '../../helpers/run.js';
import { tempDirs } from '../../helpers/temp.js';

export function configFolders(prefix: string) {
  const dir = tempDirs(prefix);
  /** The environment of a new config folder (not made yet), removed after the test. */
  const fresh = () => ({ VOICECTL_CONFIG_DIR: join(dir(), 'cfg') });
  /** The environment of a new config folder whose default profile holds `settings`, each saved by `config set`, in order. */
  async function holding(settings: Record<string, string>): Promise<{ VOICECTL_CONFIG_DIR: string }> {
    const env = fresh();
    for (const [key, value] of Object.entries(settings)) {
      const r = await run(['config', 'set', key, value], { env });
      expect(r.exitCode, r.stderr).toBe(0);
    }
    return env;
  }
  return { fresh, holding };
}
