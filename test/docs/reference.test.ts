/**
 * docs/reference.md and the man page docs/voicectl.1 are what `npm run docs` writes from
 * the program, and say what `voicectl … --help` says: every command, argument and option
 * (described, defaults and choices included, as the help words them) and every example.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Context } from '../../src/context.js';
import { EXIT } from '../../src/errors.js';
import { buildProgram } from '../../src/program.js';
import { run } from '../helpers/run.js';
import { ROOT } from './reader.js';
// @ts-expect-error plain JavaScript, run by node in `npm run docs`
import { modelOf } from '../../scripts/docs.js';
// @ts-expect-error plain JavaScript, run by node in `npm run docs`
import { manPage, markdownReference } from '../../scripts/reference.js';

interface Item { term: string; description: string }
interface CommandModel { path: string; examples: string[]; options: Item[]; arguments: Item[] }

const model = modelOf(buildProgram, Context, EXIT) as { commands: CommandModel[]; globalOptions: Item[]; exitCodes: { code: number }[] };
const reference = readFileSync(join(ROOT, 'docs/reference.md'), 'utf8');
const man = readFileSync(join(ROOT, 'docs/voicectl.1'), 'utf8');

describe('the reference pages', () => {
  it('are what npm run docs writes from the program (run it after changing a command)', () => {
    expect(reference, 'docs/reference.md is stale: run npm run docs').toBe(markdownReference(model));
    expect(man, 'docs/voicectl.1 is stale: run npm run docs').toBe(manPage(model));
  });

  it('are where the README sends readers, and installed as the man page', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('](docs/reference.md)');
    expect(readme).toContain('](docs/voicectl.1)');
    expect(readme).not.toMatch(/\.\.\/shared\//);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.man).toEqual(['./docs/voicectl.1']);
    expect(pkg.files).toContain('docs');
    expect(pkg.scripts.docs).toBe('node scripts/docs.js');
  });

  it('cover every group and verb, and every exit code', () => {
    const paths = model.commands.map((c) => c.path);
    expect(paths.length).toBeGreaterThanOrEqual(50);
    for (const p of ['voicectl login', 'voicectl campaign create', 'voicectl call recording', 'voicectl webhook rotate-secret', 'voicectl completion']) {
      expect(paths).toContain(p);
      expect(reference).toContain(`\n## ${p}\n`.replace('## voicectl campaign ', '### voicectl campaign ').replace('## voicectl call ', '### voicectl call ').replace('## voicectl webhook ', '### voicectl webhook '));
      expect(man).toContain(`.SS "${p.replace(/-/g, '\\-')}"`);
    }
    expect(model.exitCodes.map((e) => e.code)).toEqual(Object.values(EXIT));
    for (const code of Object.values(EXIT)) expect(reference).toMatch(new RegExp(`\\n\\| ${code} \\| \\w`));
  });
});

/** A help section's items, each description's wrapped lines joined. */
function items(help: string, title: string): Item[] {
  const section = help.split(`\n${title}:\n`)[1]?.split(/\n\n|\n(?=\S)/)[0];
  if (!section) return [];
  const out: Item[] = [];
  for (const line of section.split('\n')) {
    const m = /^ {2}(\S.*?)(?: {2,}(\S.*))?$/.exec(line);
    if (m && !/^ {3,}/.test(line)) out.push({ term: m[1]!, description: m[2] ?? '' });
    else if (out.length > 0) out[out.length - 1]!.description += ` ${line.trim()}`;
  }
  return out.filter((i) => i.term !== '-h, --help');
}

function examples(help: string): string[] {
  const section = help.split('\nExamples:\n')[1];
  return section === undefined ? [] : section.replace(/\s+$/, '').split('\n').map((l) => l.replace(/^ {2}/, ''));
}

const cell = (s: string) => s.replace(/\|/g, '\\|');
let compared = 0;

describe.each(model.commands.map((c) => c.path))('%s --help', (path) => {
  it('is what the reference and the man page say', async () => {
    const help = (await run([...path.split(' ').slice(1), '--help'])).stdout;
    const section = reference.split(new RegExp(`\\n#{2,3} ${path}\\n`))[1]!.split(/\n#{2,3} voicectl /)[0]!;
    const manSection = man.split(`.SS "${path.replace(/-/g, '\\-')}"\n`)[1]!.split('\n.SS ')[0]!;
    for (const title of ['Arguments', 'Options']) {
      for (const item of items(help, title)) {
        expect(section, `${path}: ${item.term}`).toContain(`| \`${cell(item.term)}\` | ${cell(item.description)} |`);
        expect(manSection, `${path}: ${item.term}`).toContain(item.term.replace(/-/g, '\\-'));
        compared++;
      }
    }
    const verbs = items(help, 'Commands').map((i) => i.term.split(/[|\s]/)[0]!).filter((v) => v !== 'help');
    for (const verb of verbs) expect(section, `${path}: verb ${verb}`).toContain(`[\`${verb}\`](#`);
    const own = examples(help);
    // a group's help lists its verbs; each verb's help ends with examples
    if (verbs.length === 0) expect(own.length, `${path}: examples`).toBeGreaterThan(0);
    if (own.length > 0) expect(section).toContain(`Examples:\n\n\`\`\`sh\n${own.join('\n')}\n\`\`\``);
    for (const example of own) expect(manSection).toContain(example.replace(/\\/g, '\\e').replace(/-/g, '\\-'));
  });
});

describe('the comparison', () => {
  it('read the options and arguments out of every help', () => {
    expect(compared).toBeGreaterThan(150);
  });
});
