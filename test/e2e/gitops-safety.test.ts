/**
 * An account folder is input from whoever can open a pull request: links out of it,
 * FIFOs, files that declare nothing, YAML built to exhaust the parser. And the lock is
 * committed, so it must not carry the credentials a base URL can hold.
 */
import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sharedHarness } from '../helpers/cli.js';
import { tempDir, type TempDir } from '../helpers/temp.js';
import { agents, writes } from './gitops-helpers.js';

/** h.dir is a folder outside the account's, holding a secret. */
const h = sharedHarness();
let tmp: TempDir;
beforeAll(() => {
  writeFileSync(join(h.dir, 'secret.txt'), 'AWS_SECRET_ACCESS_KEY=abcdefghijklmnop1234\n');
});
beforeEach(() => {
  tmp?.remove();
  tmp = tempDir();
  mkdirSync(join(tmp.dir, 'prompts'));
});

const agentWithPrompt = (how: string) => `version: 1\nagents:\n  sales:\n    name: Sales\n    voice_name: Priya\n    greeting: Hi\n    call_purpose: Test\n    ${how}\n    tools: []\n`;

describe('files of the folder that are not read', () => {
  it.runIf(process.platform === 'linux')('a prompt linked to /proc/self/environ is refused, and the key is printed nowhere', async () => {
    symlinkSync('/proc/self/environ', join(tmp.dir, 'prompts/sales.md'));
    writeFileSync(join(tmp.dir, 'voicectl.yaml'), agentWithPrompt('prompt: !file prompts/sales.md'));
    const before = h.sandbox.requests.length;
    for (const verb of ['plan', 'apply']) {
      const r = await h.run([verb, tmp.dir, '--yes']);
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain('agents.sales.prompt: refused: prompts/sales.md is a symbolic link');
      expect(r.stdout + r.stderr).not.toContain(h.sandbox.apiKey);
    }
    expect(h.sandbox.requests.length).toBe(before);
  });

  it('prompt_file, !file and documents: links, links to folders and paths through them are refused, naming the file', async () => {
    symlinkSync(join(h.dir, 'secret.txt'), join(tmp.dir, 'prompts/linked.md'));
    symlinkSync(h.dir, join(tmp.dir, 'kb'));
    writeFileSync(join(tmp.dir, 'voicectl.yaml'), `${agentWithPrompt('prompt_file: prompts/linked.md')}documents:\n  kb/secret.txt: {}\n`);
    const r = await h.run(['apply', tmp.dir, '--yes']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('agents.sales.prompt_file: refused: prompts/linked.md is a symbolic link');
    expect(r.stderr).toContain('documents.kb/secret.txt: refused: kb/ is a symbolic link');
    expect(r.stderr).not.toContain('abcdefghijklmnop');
    expect(writes(h.sandbox.requests)).toEqual([]);
  });

  it('a dangling link where a document would be is refused, not taken for a reference to the account\'s copy', async () => {
    symlinkSync(join(h.dir, 'nothing-here'), join(tmp.dir, 'faq.md'));
    writeFileSync(join(tmp.dir, 'voicectl.yaml'), 'version: 1\ndocuments:\n  faq.md: {}\n');
    const r = await h.run(['plan', tmp.dir]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('documents.faq.md: refused: faq.md is a symbolic link');
  });

  it.runIf(process.platform !== 'win32')('a FIFO as a prompt, a document or the lock is refused at once instead of hanging', async () => {
    execFileSync('mkfifo', [join(tmp.dir, 'prompts/fifo.md'), join(tmp.dir, 'doc.md')]);
    writeFileSync(join(tmp.dir, 'voicectl.yaml'), `${agentWithPrompt('prompt: !file prompts/fifo.md')}documents:\n  doc.md: {}\n`);
    const r = await h.run(['plan', tmp.dir], { timeout: 20_000 });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('agents.sales.prompt: refused: prompts/fifo.md is a named pipe (FIFO), not a regular file');
    expect(r.stderr).toContain('documents.doc.md: refused: doc.md is a named pipe (FIFO), not a regular file');

    const lockDir = tempDir();
    try {
      writeFileSync(join(lockDir.dir, 'voicectl.yaml'), 'version: 1\nagents: {}\n');
      execFileSync('mkfifo', [join(lockDir.dir, 'voicectl.lock.json')]);
      const l = await h.run(['plan', lockDir.dir], { timeout: 20_000 });
      expect(l.exitCode).toBe(2);
      expect(l.stderr).toContain('voicectl.lock.json is a named pipe (FIFO), not a regular file');
    } finally {
      lockDir.remove();
    }
  }, 30_000);

  it.runIf(process.platform !== 'win32')('hard links to a file outside the folder are refused as a prompt, a document, voicectl.yaml and the lock, by plan and apply, the lock by pull too', async () => {
    // A hard link is the secret itself under a second name inside the folder (an archive unpacked there can hold one).
    linkSync(join(h.dir, 'secret.txt'), join(tmp.dir, 'prompts/linked.md'));
    linkSync(join(h.dir, 'secret.txt'), join(tmp.dir, 'doc.md'));
    writeFileSync(join(tmp.dir, 'voicectl.yaml'), `${agentWithPrompt('prompt: !file prompts/linked.md')}documents:\n  doc.md: {}\n`);
    const before = h.sandbox.requests.length;
    for (const verb of ['plan', 'apply']) {
      const r = await h.run([verb, tmp.dir, '--yes']);
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain('agents.sales.prompt: refused: prompts/linked.md has 3 hard links (names), and another name may be a file outside the folder');
      expect(r.stderr).toContain('documents.doc.md: refused: doc.md has 3 hard links');
      expect(r.stdout + r.stderr).not.toContain('abcdefghijklmnop');
    }
    expect(writes(h.sandbox.requests.slice(before))).toEqual([]);

    const other = tempDir();
    try {
      writeFileSync(join(h.dir, 'elsewhere.yaml'), 'version: 1\nagents: {}\n');
      linkSync(join(h.dir, 'elsewhere.yaml'), join(other.dir, 'voicectl.yaml'));
      const y = await h.run(['plan', other.dir]);
      expect(y.exitCode, y.stderr).toBe(2);
      expect(y.stderr).toContain('voicectl.yaml cannot be used: voicectl.yaml has 2 hard links');
      writeFileSync(join(tmp.dir, 'voicectl.yaml'), 'version: 1\nagents: {}\n');
      writeFileSync(join(h.dir, 'lock.json'), '{}\n');
      linkSync(join(h.dir, 'lock.json'), join(tmp.dir, 'voicectl.lock.json'));
      for (const verb of ['plan', 'pull']) {
        const l = await h.run([verb, tmp.dir, '--yes']);
        expect(l.exitCode, l.stderr).toBe(2);
        expect(l.stderr).toContain('voicectl.lock.json has 2 hard links');
      }
      expect(readFileSync(join(h.dir, 'lock.json'), 'utf8')).toBe('{}\n');
    } finally {
      other.remove();
    }
  });

  it('a voicectl.yaml that is a link is refused', async () => {
    writeFileSync(join(h.dir, 'elsewhere.yaml'), 'version: 1\nagents: {}\n');
    symlinkSync(join(h.dir, 'elsewhere.yaml'), join(tmp.dir, 'voicectl.yaml'));
    const r = await h.run(['plan', tmp.dir]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('voicectl.yaml is a symbolic link');
  });

  it('pull does not write through a link in the folder', async () => {
    const target = join(h.dir, 'victim.md');
    writeFileSync(target, 'untouched\n');
    const r0 = await h.run(['agent', 'create', '--name', 'Long prompt', '--voice', 'Priya', '--greeting', 'Hi', '--call-purpose', 'x', '--prompt', 'line one\nline two']);
    expect(r0.exitCode, r0.stderr).toBe(0);
    const handle = 'long-prompt';
    symlinkSync(target, join(tmp.dir, `prompts/${handle}.md`));
    const r = await h.run(['pull', tmp.dir]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`prompts/${handle}.md is a symbolic link`);
    expect(readFileSync(target, 'utf8')).toBe('untouched\n');
  });
});

describe('a plan shows no secret', () => {
  it('masks the run\'s API key and key-like text in prompt diffs, in text and --json', async () => {
    writeFileSync(join(tmp.dir, 'prompts/p.md'), 'Be brief.\n');
    writeFileSync(join(tmp.dir, 'voicectl.yaml'), agentWithPrompt('prompt: !file prompts/p.md'));
    expect((await h.run(['apply', tmp.dir, '--yes'])).exitCode).toBe(0);
    writeFileSync(join(tmp.dir, 'prompts/p.md'), `Be brief.\nkey ${h.sandbox.apiKey}\nSTRIPE_SECRET_KEY=rk_live_abcdefgh12345678\nwebhook secret whsec_abcdefghij0123\n`);
    for (const args of [['plan', tmp.dir], ['plan', tmp.dir, '--json']]) {
      const r = await h.run(args);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toContain('***');
      expect(r.stdout).not.toContain(h.sandbox.apiKey);
      expect(r.stdout).not.toContain('rk_live_abcdefgh12345678');
      expect(r.stdout).not.toContain('whsec_abcdefghij0123');
      expect(r.stdout).toContain('Be brief.');
    }
    for (const a of await agents(h.api)) if (a.name === 'Sales') await h.api('DELETE', `/agents/${a.id}`);
  });
});

describe('the lock file', () => {
  it('records the base URL without credentials or query', async () => {
    writeFileSync(join(tmp.dir, 'voicectl.yaml'), 'version: 1\nagents: {}\n');
    const url = new URL(h.sandbox.url);
    const withCreds = `${url.protocol}//someone:hunter2hunter2@${url.host}/?api_key=${h.sandbox.apiKey}`;
    const pulled = tempDir();
    try {
      const r = await h.run(['pull', pulled.dir], { env: { VOICECTL_BASE_URL: withCreds } });
      expect(r.exitCode, r.stderr).toBe(0);
      const lock = readFileSync(join(pulled.dir, 'voicectl.lock.json'), 'utf8');
      expect(lock).not.toContain('hunter2');
      expect(lock).not.toContain(h.sandbox.apiKey);
      expect(JSON.parse(lock).base_url).toBe(`${url.protocol}//${url.host}`);
      // The same account without credentials is the same lock.
      expect((await h.run(['plan', pulled.dir])).exitCode).toBe(0);
      // apply writes a lock of its own when there is none.
      writeFileSync(join(tmp.dir, 'voicectl.yaml'), 'version: 1\nwebhooks: {}\ndocuments:\n  faq.md: {}\n');
      writeFileSync(join(tmp.dir, 'faq.md'), 'Questions.\n');
      const applied = await h.run(['apply', tmp.dir, '--yes'], { env: { VOICECTL_BASE_URL: withCreds } });
      expect(applied.exitCode, applied.stderr).toBe(0);
      const applyLock = readFileSync(join(tmp.dir, 'voicectl.lock.json'), 'utf8');
      expect(applyLock).not.toContain('hunter2');
      expect(JSON.parse(applyLock).base_url).toBe(`${url.protocol}//${url.host}`);
    } finally {
      pulled.remove();
    }
  });
});

describe('files that declare nothing', () => {
  it.each([
    ['empty', ''],
    ['null', 'null\n'],
    ['comments only', '# nothing yet\n'],
  ])('an %s voicectl.yaml is refused, so apply --prune cannot take it for "delete everything"', async (_label, text) => {
    writeFileSync(join(tmp.dir, 'voicectl.yaml'), text);
    const r = await h.run(['apply', tmp.dir, '--prune', '--yes']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('is empty');
    expect(r.stderr).toContain('version: 1');
  });

  it('a file without version is refused', async () => {
    writeFileSync(join(tmp.dir, 'voicectl.yaml'), 'agents: {}\n');
    const r = await h.run(['apply', tmp.dir, '--prune', '--yes']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('version: missing');
  });
});

describe('YAML made to hurt', () => {
  it('an alias bomb is exit 2 naming the file', async () => {
    const lines = ['version: 1', 'a: &a [x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 9; i++) lines.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${String.fromCharCode(96 + i)}`).join(', ')}]`);
    writeFileSync(join(tmp.dir, 'voicectl.yaml'), `${lines.join('\n')}\n`);
    const r = await h.run(['plan', tmp.dir]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('voicectl.yaml is not valid');
    expect(r.stderr).toContain('aliases expand to more than');
    expect(r.stderr).not.toContain('unexpected error');
  });

  it('an alias with no anchor is exit 2 naming the file and the alias', async () => {
    writeFileSync(join(tmp.dir, 'voicectl.yaml'), 'version: 1\nagents:\n  a: *nowhere\n');
    const r = await h.run(['plan', tmp.dir]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('voicectl.yaml is not valid');
    expect(r.stderr).toContain('*nowhere is an alias with no anchor &nowhere');
  });
});
