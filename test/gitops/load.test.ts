import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileRef, loadDesired } from '../../src/gitops/load.js';
import { yamlText } from '../../src/gitops/pull.js';
import { tempDir, type TempDir } from '../helpers/temp.js';

let tmp: TempDir | undefined;
afterEach(() => tmp?.remove());

/** Values YAML writers and readers commonly get wrong. */
const TRICKY: Record<string, unknown> = {
  words: ['yes', 'no', 'on', 'off', 'null', '~', 'true', 'NaN', '.inf', '0x10', '0o17', '1e3', '012', '1_000', '2024-01-01', '12:30'],
  spacing: ['', ' leading', 'trailing ', 'two\nlines', 'ends with newline\n', 'tab\there', 'crlf\r\nline'],
  marks: ['#not a comment', '- dash', ': colon', '!tag', '*alias', '&anchor', '{brace', '[bracket', '"quoted"', "'single'", '%percent', '@at', '`tick', '|pipe', '>fold'],
  unicode: ['नमस्ते', 'வணக்கம்', 'emoji 🙏🏽', '\u00a0nbsp', 'zero\u200bwidth'],
  numbers: [0, -1, 0.1, 1.5, 1e21, 2 ** 53 - 1, -0.000001],
  nested: { 'key: with colon': { '#': [null, true, false, [], {}] }, empty: '', 'multi\nline key': 1 },
  nothing: null,
};

describe('voicectl.yaml round trip', () => {
  it('values under other_fields come back exactly as pull wrote them', async () => {
    tmp = tempDir();
    const text = yamlText({ version: 1, agents: { a: { name: 'A', other_fields: TRICKY } }, documents: {}, webhooks: {} });
    writeFileSync(join(tmp.dir, 'voicectl.yaml'), text);
    const desired = await loadDesired(tmp.dir);
    expect(desired.agents.get('a')!.other).toEqual(TRICKY);
    expect(JSON.stringify(desired.agents.get('a')!.other)).toBe(JSON.stringify(TRICKY));
  });

  it('prompt text, inline or from !file, comes back exactly (one final line break is the file\'s own)', async () => {
    tmp = tempDir();
    const prompts = ['plain', '  indented\n\nblank lines\n', 'ends\n\n', 'नमस्ते\r\nwindows'];
    mkdirSync(join(tmp.dir, 'prompts'));
    const agents: Record<string, unknown> = {};
    prompts.forEach((p, i) => {
      writeFileSync(join(tmp!.dir, `prompts/${i}.md`), `${p}\n`);
      agents[`f${i}`] = { name: `F${i}`, prompt: new FileRef(`prompts/${i}.md`) };
      agents[`i${i}`] = { name: `I${i}`, prompt: p };
    });
    writeFileSync(join(tmp.dir, 'voicectl.yaml'), yamlText({ version: 1, agents }));
    const desired = await loadDesired(tmp.dir);
    prompts.forEach((p, i) => {
      expect(desired.agents.get(`f${i}`)!.text.prompt).toBe(p);
      expect(desired.agents.get(`i${i}`)!.text.prompt).toBe(p);
    });
  });

  it('refuses paths outside the folder and duplicate keys', async () => {
    tmp = tempDir();
    writeFileSync(join(tmp.dir, 'voicectl.yaml'), 'version: 1\nagents:\n  a:\n    name: A\n    prompt: !file ../../etc/passwd\ndocuments:\n  /etc/hosts: {}\n');
    const err = await loadDesired(tmp.dir).catch((e: Error) => e);
    expect(String(err)).toContain('agents.a.prompt: "../../etc/passwd" is outside the folder');
    expect(String(err)).toContain('documents./etc/hosts: "/etc/hosts" is outside the folder');
    writeFileSync(join(tmp.dir, 'voicectl.yaml'), 'agents:\n  a:\n    name: A\n  a:\n    name: B\n');
    await expect(loadDesired(tmp.dir)).rejects.toThrow(/Map keys must be unique/);
  });

  it('two documents that are the same file in the account are an error', async () => {
    tmp = tempDir();
    writeFileSync(join(tmp.dir, 'voicectl.yaml'), 'version: 1\ndocuments:\n  a/faq.md: {folder: help}\n  b/faq.md: {folder: help}\n');
    await expect(loadDesired(tmp.dir)).rejects.toThrow(/a\/faq\.md and b\/faq\.md are both the account's help\/faq\.md/);
  });
});
