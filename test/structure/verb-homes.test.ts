/**
 * Every verb has a test file of its own: each verb of the program (read from the specs,
 * as the program is built) has test/commands/<group>/<verb>.test.ts; a top-level verb is
 * its own group (test/commands/login/login.test.ts).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/program.js';
import { isGroup, type Group, type Verb } from '../../src/commands/spec.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Where each verb's tests live, relative to the repository: the group's folder, the verb's name. */
export function testHomes(commands: readonly (Group | Verb)[]): string[] {
  const topLevel = new Set(commands.filter((c) => !isGroup(c)));
  return commands.flatMap((c) => isGroup(c)
    // A verb listed again under a group (`campaign watch`) has its home where it is declared.
    ? c.verbs.filter((v) => !topLevel.has(v)).map((v) => `test/commands/${c.name}/${v.name}.test.ts`)
    : [`test/commands/${c.name}/${c.name}.test.ts`]);
}

describe('verbs', () => {
  it('finds the homes (the checker itself)', () => {
    const solo: Verb = { name: 'login', summary: '', examples: [] };
    const watch: Verb = { name: 'watch', summary: '', examples: [] };
    const group: Group = { name: 'campaign', summary: '', verbs: [{ name: 'run', summary: '', examples: [] }, watch] };
    expect(testHomes([solo, group, watch])).toEqual(['test/commands/login/login.test.ts', 'test/commands/campaign/run.test.ts', 'test/commands/watch/watch.test.ts']);
  });

  it('each have a test file of their own: test/commands/<group>/<verb>.test.ts', () => {
    const homes = testHomes(COMMANDS);
    expect(homes.length).toBeGreaterThan(50);
    expect(homes.filter((f) => !existsSync(join(ROOT, f)))).toEqual([]);
  });
});
