/** docs/architecture.md is what scripts/architecture.js writes from the layer map (`npm run docs`). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript, run by node in `npm run docs`
import { architectureMarkdown, layerPicture, loadLayerMap } from '../../scripts/architecture.js';
import * as map from './layers.js';

const DOC = new URL('../../docs/architecture.md', import.meta.url);

describe('docs/architecture.md', () => {
  it('is generated from the layer map the structure test holds the code to (run `npm run docs`)', () => {
    expect(readFileSync(DOC, 'utf8')).toBe(architectureMarkdown(map));
  });

  it('reads the same map from its source as the tests import', async () => {
    expect(architectureMarkdown(await loadLayerMap())).toBe(architectureMarkdown(map));
  });

  it('names every layer and every exception', () => {
    const doc = readFileSync(DOC, 'utf8');
    for (const l of map.LAYERS) expect(doc).toContain(`| ${l.name} |`);
    for (const e of map.IMPORT_EXCEPTIONS) expect(doc).toContain(`\`src/${e.from}\` → \`src/${e.to}\``);
    for (const e of map.PATTERN_EXCEPTIONS) expect(doc).toContain(`\`src/${e.file}\` (${e.pattern})`);
  });

  it('draws the layers bottom to top, each once and on a row above every layer it imports', () => {
    const rowOf = new Map<string, number>();
    let row = -1;
    for (const line of layerPicture(map.LAYERS) as string[]) {
      const n = /^\s*(\d+) │/.exec(line);
      if (n) row = Number(n[1]);
      for (const [, name] of line.matchAll(/\[ ([\w-]+) \]/g)) {
        expect(rowOf.has(name!), name).toBe(false);
        rowOf.set(name!, row);
      }
    }
    expect([...rowOf.keys()].sort()).toEqual(map.LAYERS.map((l) => l.name).sort());
    for (const l of map.LAYERS) for (const m of l.may) expect(rowOf.get(l.name)!, `${l.name} over ${m}`).toBeGreaterThan(rowOf.get(m)!);
    expect(readFileSync(DOC, 'utf8')).toContain(layerPicture(map.LAYERS).join('\n'));
  });
});
