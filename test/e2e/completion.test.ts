/** `voicectl completion`, run as the built binary, and the bash script it prints, run in bash. */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { baseEnv, runCli } from '../helpers/cli.js';
import { tempDir } from '../config/harness.js';

const dir = tempDir('voicectl-e2e-completion-');
afterAll(() => dir.remove());
const env = baseEnv(join(dir.dir, 'config'));

describe('voicectl completion', () => {
  it.each(['bash', 'zsh', 'fish'])('%s: prints a script naming the commands and the global flags', async (shell) => {
    const r = await runCli(['completion', shell], env);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    for (const word of ['voicectl agent create', 'agents', 'voicectl config set', 'voicectl login', '--with-key-stdin', '--base-url', '--no-input', '--profile']) {
      expect(r.stdout, word).toContain(word);
    }
  });

  it('the bash script, sourced in bash, completes `voicectl ag`, `voicectl agent cr` and `voicectl agent create --na`', async () => {
    const r = await runCli(['completion', 'bash'], env);
    const file = join(dir.dir, 'voicectl.bash');
    writeFileSync(file, r.stdout);
    const complete = (...words: string[]) =>
      // no start-up files and no socket on stdin: nothing of the machine's ~/.bashrc runs
      execFileSync('bash', ['--norc', '--noprofile', '-c', 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _voicectl; printf "%s\\n" "${COMPREPLY[@]}"', '_', file, ...words], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
        .split('\n').filter(Boolean).sort();
    expect(complete('voicectl', 'ag')).toEqual(['agent', 'agents']);
    expect(complete('voicectl', 'agent', 'cr')).toEqual(['create']);
    expect(complete('voicectl', 'agent', 'create', '--na')).toEqual(['--name']);
    expect(complete('voicectl', 'login', '--with')).toEqual(['--with-key-stdin']);
  });

  it('an unknown shell is exit 2 naming the supported ones', async () => {
    const r = await runCli(['completion', 'powershell'], env);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('bash, zsh, fish');
  });
});
