import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { bytes, Progress } from '../../src/export/progress.js';

function bar(opts: { unit: 'rows' | 'bytes'; total?: number; enabled: boolean }) {
  let t = 0;
  const out = new PassThrough();
  let text = '';
  out.on('data', (d: Buffer) => (text += d.toString()));
  const p = new Progress(out, { ...opts, label: 'Exporting', now: () => t });
  return { p, advance: (ms: number) => (t += ms), text: () => text };
}

describe('Progress', () => {
  it('shows rows of total, the rate and the time left', () => {
    const b = bar({ unit: 'rows', total: 10_000, enabled: true });
    b.advance(2000);
    b.p.add(2500);
    expect(b.p.line()).toBe(`Exporting  [██████${'░'.repeat(18)}]  2,500/10,000 rows  1,250/s  0:06 left`);
    expect(b.text()).toContain('2,500/10,000 rows');
    b.p.clear();
    expect(b.text().endsWith('\r\x1b[K')).toBe(true);
  });

  it('shows bytes without a total', () => {
    const b = bar({ unit: 'bytes', enabled: true });
    b.advance(1000);
    b.p.add(3 * 1024 * 1024);
    expect(b.p.line()).toBe('Exporting  3.0 MB  3.0 MB/s');
    expect(bytes(512)).toBe('512 B');
  });

  it('writes nothing when disabled', () => {
    const b = bar({ unit: 'rows', total: 10, enabled: false });
    b.advance(500);
    b.p.add(5);
    b.p.clear();
    expect(b.text()).toBe('');
  });
});
