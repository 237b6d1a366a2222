import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readJsonFile, type JsonFileProblem } from '../../src/util/json-file.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voicectl-json-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const fail = ({ kind, error }: JsonFileProblem) => new Error(`${kind}: ${error.message}`);

describe('readJsonFile', () => {
  it('reads the data, and no file is undefined rather than an error', async () => {
    writeFileSync(join(dir, 'a.json'), '{"mark":"x"}');
    expect(await readJsonFile(join(dir, 'a.json'), fail)).toEqual({ mark: 'x' });
    expect(await readJsonFile(join(dir, 'none.json'), fail)).toBeUndefined();
  });

  it('lets the caller word a file it cannot read and one that is not JSON', async () => {
    mkdirSync(join(dir, 'folder.json'));
    await expect(readJsonFile(join(dir, 'folder.json'), fail)).rejects.toThrow(/^read: .*EISDIR/);
    writeFileSync(join(dir, 'bad.json'), '{not json');
    await expect(readJsonFile(join(dir, 'bad.json'), fail)).rejects.toThrow(/^json: /);
  });
});
