/** `voicectl pull DIR`: the account written as files, the built binary against the sandbox. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { itShowsHelp } from '../../helpers/verb-home.js';
import { sharedHarness } from '../../helpers/cli.js';
import { givenAgent } from '../../helpers/given.js';

const h = sharedHarness();

describe('pull', () => {
  itShowsHelp((args) => h.run(args), ['pull']);

  it('writes voicectl.yaml with the account\'s agents, its schema and the lock', async () => {
    await givenAgent(h.api, { name: 'Pulled Priya' });
    const dir = join(h.dir, 'account');
    const r = await h.run(['pull', dir]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readFileSync(join(dir, 'voicectl.yaml'), 'utf8')).toContain('Pulled Priya');
    expect(existsSync(join(dir, 'voicectl.lock.json'))).toBe(true);
    expect(existsSync(join(dir, 'voicectl.schema.json'))).toBe(true);
  });

  it('a folder that is a file is exit 1, naming it', async () => {
    const file = join(h.dir, 'a-file');
    writeFileSync(file, '');
    const r = await h.run(['pull', file]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('a part of the path is a file');
  });
});
