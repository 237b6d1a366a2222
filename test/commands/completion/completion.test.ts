import { execFileSync, type ExecFileSyncOptionsWithStringEncoding, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completionScript } from '../../../src/commands/completion/print.js';
import { type Shell, SHELLS } from '../../../src/commands/completion/shells.js';
import { testContext } from '../../../src/context-test.js';
import { buildProgram } from '../../../src/program.js';
import { tempDir } from '../../config/harness.js';
import { run } from '../../helpers/run.js';
import { needs } from '../../helpers/requires.js';
import { baseEnv, runCli } from '../../helpers/cli.js';

describe('voicectl completion: the scripts, and what each shell makes of them', () => {
  const ctx = testContext();

  interface Node {
    words: string[];
    names: string[];
    flags: string[];
    children: Node[];
  }

  /** The program as commander holds it, walked here independently of the generator. */
  function walk(cmd: Command, words: string[] = ['voicectl']): Node {
    const flags = cmd.options.flatMap((o) => [o.short, o.long].filter((f): f is string => Boolean(f)));
    return {
      words,
      names: [cmd.name(), ...cmd.aliases()],
      flags: [...new Set([...flags, '-h', '--help'])],
      // Hidden commands are left out of completion on purpose.
      children: cmd.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden).map((c) => walk(c, [...words, c.name()])),
    };
  }
  const all = (n: Node): Node[] => [n, ...n.children.flatMap(all)];
  const tree = walk(buildProgram(ctx));
  const nodes = all(tree);
  const sorted = (xs: string[]) => [...new Set(xs)].sort();

  const dir = tempDir('voicectl-completion-');
  const files = {} as Record<Shell, string>;
  beforeAll(() => {
    for (const shell of SHELLS) {
      files[shell] = join(dir.dir, `voicectl.${shell}`);
      writeFileSync(files[shell], completionScript(buildProgram(ctx), shell));
    }
  });
  afterAll(() => dir.remove());


  /**
   * The shells run the scripts and nothing of the machine's user: no start-up files, and
   * no socket on stdin (bash started with a socket on stdin and no SHLVL, as from a bare CI
   * environment, takes itself for a remote shell and reads ~/.bashrc; one that starts pyenv
   * made each call take half a second, and this file time out).
   */
  const HERMETIC: ExecFileSyncOptionsWithStringEncoding = { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] };

  /** Candidates bash's completion function offers for the words typed (the last is the one being completed). */
  function bashComplete(words: string[]): string[] {
    const out = execFileSync('bash', ['--norc', '--noprofile', '-c', 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _voicectl; printf "%s\\n" "${COMPREPLY[@]}"', '_', files.bash, ...words], HERMETIC);
    return out.split('\n').filter(Boolean);
  }

  /** zsh's candidates, with the completion builtins replaced by printers (no terminal needed). */
  function zshComplete(words: string[]): string[] {
    const stubs = [
      'compdef() { :; }', 'compset() { :; }', '_files() { print -- "<files>"; }',
      'compadd() { print -l -- ${(P)2}; }', '_describe() { local e; for e in "${(@P)4}"; do print -- "${e%%:*}"; done; }',
    ].join('\n');
    const out = execFileSync('zsh', ['-f', '-c', `${stubs}\nsource "$1"; shift; words=("$@"); CURRENT=$#; _voicectl`, '_', files.zsh, ...words], HERMETIC);
    return out.split('\n').filter(Boolean);
  }

  function fishComplete(line: string): string[] {
    const out = execFileSync('fish', ['--no-config', '-c', 'source $argv[1]; complete -C"$argv[2]"', files.fish, line], HERMETIC);
    return out.split('\n').filter(Boolean).map((l) => l.split('\t')[0]!);
  }

  describe('completion scripts', () => {
    it.each(SHELLS)('%s: the script names every command, alias and flag of the program', (shell) => {
      const script = completionScript(buildProgram(ctx), shell);
      for (const node of nodes) {
        if (node.words.length > 1) expect(script, `${shell}: command ${node.words.join(' ')}`).toContain(node.words.join(' '));
        for (const name of node.names.slice(1)) expect(script, `${shell}: alias ${name}`).toMatch(new RegExp(`[\\s']${name}[\\s']`));
        for (const flag of node.flags) expect(script, `${shell}: flag ${flag}`).toMatch(new RegExp(`[\\s'(]${flag}[\\s':)]`));
      }
      // The global options are there too, on every command that takes them.
      for (const flag of ['--base-url', '--api-key', '--profile', '--json', '--output', '--no-input', '--debug', '--yes', '--no-color', '--timeout']) {
        expect(script).toContain(flag);
      }
    });

    it('covers the commands this program has (so the checks above check something)', () => {
      const paths = nodes.map((n) => n.words.join(' '));
      expect(paths).toEqual(expect.arrayContaining(['voicectl login', 'voicectl config set', 'voicectl agent create', 'voicectl completion']));
    });

    it('`voicectl completion <shell>` prints the script on stdout; another shell is exit 2', async () => {
      const env = { VOICECTL_CONFIG_DIR: dir.dir };
      const bash = await run(['completion', 'bash'], { env });
      expect(bash.exitCode).toBe(0);
      expect(bash.stdout).toContain('complete -o default -F _voicectl voicectl');
      const bad = await run(['completion', 'tcsh'], { env });
      expect(bad.exitCode).toBe(2);
      expect(bad.stderr).toContain('bash, zsh, fish');
    });
  });

  describe('bash completion, run in bash', () => {
    it('completes groups with their aliases, verbs, and flags', () => {
      expect(sorted(bashComplete(['voicectl', 'ag']))).toEqual(['agent', 'agents']);
      expect(bashComplete(['voicectl', 'agent', 'cr'])).toEqual(['create']);
      expect(bashComplete(['voicectl', 'agent', 'create', '--na'])).toEqual(['--name']);
    });

    it('offers, for every command, exactly its subcommands or its flags', () => {
      for (const node of nodes) {
        const typed = node.words;
        if (node.children.length > 0) {
          expect(sorted(bashComplete([...typed, ''])), typed.join(' ')).toEqual(sorted(node.children.flatMap((c) => c.names)));
        }
        expect(sorted(bashComplete([...typed, '-'])), `${typed.join(' ')} -`).toEqual(sorted(node.flags));
      }
    });

    it('skips flags and their values on the way, and completes flag values and argument choices', () => {
      expect(sorted(bashComplete(['voicectl', '--profile', 'staging', 'ag']))).toEqual(['agent', 'agents']);
      expect(bashComplete(['voicectl', 'agents', 'ls', '--limit', '5', '--al'])).toEqual(['--all']);
      expect(sorted(bashComplete(['voicectl', 'agent', 'list', '-o', '']))).toEqual(['csv', 'json', 'jsonl', 'table']);
      // bash splits `--output=js` at "=".
      expect(sorted(bashComplete(['voicectl', 'agent', 'list', '--output', '=', 'js']))).toEqual(['json', 'jsonl']);
      expect(sorted(bashComplete(['voicectl', 'completion', '']))).toEqual(['bash', 'fish', 'zsh']);
      expect(bashComplete(['voicectl', 'config', 'set', 'def'])).toEqual(['default_country']);
      // A free value (a name, a URL): nothing offered, so bash falls back to file names.
      expect(bashComplete(['voicectl', 'agent', 'create', '--name', ''])).toEqual([]);
    });
  });

  // zsh and fish from the system (.ci/run installs them): without them these skip, or fail under CI=true.
  describe('zsh completion, run in zsh', () => {
    it('offers the right candidates (zsh itself filters them by prefix)', (ctx) => {
      needs(ctx, 'zsh');
      expect(zshComplete(['voicectl', 'ag'])).toEqual(expect.arrayContaining(['agent', 'agents', 'config']));
      expect(zshComplete(['voicectl', 'agent', 'cr'])).toEqual(expect.arrayContaining(['create', 'list', 'rm']));
      expect(zshComplete(['voicectl', 'agent', 'create', '--na'])).toEqual(expect.arrayContaining(['--name', '--api-key']));
      expect(zshComplete(['voicectl', '--profile', 'x', 'agent', 'list', '-o', ''])).toEqual(['table', 'json', 'jsonl', 'csv']);
      expect(zshComplete(['voicectl', 'agent', 'get', ''])).toEqual(['<files>']);
    });

    it('passes zsh -n', (ctx) => {
      needs(ctx, 'zsh');
      expect(spawnSync('zsh', ['-f', '-n', files.zsh], { stdio: 'ignore' }).status).toBe(0);
    });
  });

  describe('fish completion, run in fish', () => {
    it('completes groups, verbs, flags and values', (ctx) => {
      needs(ctx, 'fish');
      expect(sorted(fishComplete('voicectl ag'))).toEqual(['agent', 'agents']);
      expect(fishComplete('voicectl agent cr')).toEqual(['create']);
      expect(fishComplete('voicectl agent create --na')).toEqual(['--name']);
      expect(sorted(fishComplete('voicectl agent list --output='))).toEqual(['--output=csv', '--output=json', '--output=jsonl', '--output=table']);
      expect(sorted(fishComplete('voicectl completion '))).toEqual(['bash', 'fish', 'zsh']);
    });
  });
});

describe('voicectl completion, the built binary', () => {
  /** `voicectl completion`, run as the built binary, and the bash script it prints, run in bash. */
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
});
