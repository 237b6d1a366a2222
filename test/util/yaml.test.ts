/**
 * The one reader of the YAML files users write (src/util/yaml.ts): voicectl.yaml and the
 * `campaign run` policy both go through it, so both place their problems the same way and
 * both refuse an alias bomb.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parsePolicyFile } from '../../src/campaigns/run/policy-file.js';
import { loadDesired } from '../../src/gitops/load.js';
import { MAX_ALIASES, parseYaml, problemList, yamlData } from '../../src/util/yaml.js';

const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', 'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]', 'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]', 'd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]'].join('\n');

describe('parseYaml and yamlData', () => {
  it('ignore a byte-order mark and read plain data', () => {
    const { doc, problems } = parseYaml('\uFEFFwave_size: 5\n');
    expect(problems).toEqual([]);
    expect(yamlData(doc)).toEqual({ data: { wave_size: 5 } });
  });

  it('place a repeated key by line and column', () => {
    const { problems } = parseYaml('a: 1\nb: 2\na: 3\n');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/unique.* \(line 3, column 1\)$/);
  });

  it('refuse an alias bomb and name an alias with no anchor', () => {
    expect(yamlData(parseYaml(bomb).doc).problem).toContain(`more than ${MAX_ALIASES} copies`);
    expect(yamlData(parseYaml('a: *nowhere\n').doc).problem).toMatch(/\*nowhere is an alias with no anchor &nowhere/);
  });

  it('list at most 12 problems', () => {
    const list = problemList(Array.from({ length: 14 }, (_, i) => `p${i}`));
    expect(list.split('\n')).toHaveLength(13);
    expect(list).toContain('… and 2 more');
  });
});

describe('both files users write', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'voicectl-yaml-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('place a syntax error the same way', async () => {
    const text = 'version: 1\nagents: {}\nagents: {}\n';
    writeFileSync(join(dir, 'voicectl.yaml'), text);
    const account = await loadDesired(dir).then(() => '', (err: Error) => err.message);
    let policy = '';
    try {
      parsePolicyFile('run.yaml', 'wave_size: 1\nwave_size: 2\n', { span: () => undefined, now: 0, dir });
    } catch (err) {
      policy = (err as Error).message;
    }
    expect(account).toMatch(/\(line 3, column 1\)/);
    expect(policy).toMatch(/\(line 2, column 1\)/);
  });

  it('refuse an alias bomb', async () => {
    writeFileSync(join(dir, 'voicectl.yaml'), `version: 1\n${bomb}\n`);
    await expect(loadDesired(dir)).rejects.toThrow(/billion laughs/);
    expect(() => parsePolicyFile('run.yaml', bomb, { span: () => undefined, now: 0, dir })).toThrow(/billion laughs/);
  });
});
