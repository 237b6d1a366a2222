import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fdWriter, type FdWriter } from '../../src/io/fd-write.js';

const dir = mkdtempSync(join(tmpdir(), 'voicectl-fd-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function collector(): FdWriter & { bytes: () => number } {
  let n = 0;
  return { write: (t) => { n += typeof t === 'string' ? Buffer.byteLength(t) : t.length; return true; }, bytes: () => n };
}

describe.skipIf(process.platform === 'win32')('fdWriter', () => {
  it('writes everything to a file', () => {
    const file = join(dir, 'out.txt');
    const fd = openSync(file, 'w');
    const w = fdWriter(fd, () => { throw new Error('no stream needed'); });
    w.write('héllo\n');
    w.write(Buffer.from('world\n'));
    closeSync(fd);
    expect(readFileSync(file, 'utf8')).toBe('héllo\nworld\n');
  });

  it('hands the rest to the stream when a non-blocking pipe is full, losing nothing', () => {
    const fifo = join(dir, 'full');
    execFileSync('mkfifo', [fifo]);
    const fd = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
    const stream = collector();
    const w = fdWriter(fd, () => stream);
    const total = 512 * 1024;
    w.write('x'.repeat(total));
    w.write('more');
    let inPipe = 0;
    const buf = Buffer.alloc(64 * 1024);
    for (;;) {
      try {
        const n = readSync(fd, buf);
        if (n === 0) break;
        inPipe += n;
      } catch {
        break; // EAGAIN: the pipe is empty
      }
    }
    closeSync(fd);
    expect(inPipe).toBeGreaterThan(0);
    expect(stream.bytes()).toBeGreaterThan(0);
    expect(inPipe + stream.bytes()).toBe(total + 4);
  });

  it('stops quietly when the reader has gone', () => {
    const fifo = join(dir, 'gone');
    execFileSync('mkfifo', [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const fd = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    closeSync(reader);
    const w = fdWriter(fd, () => { throw new Error('no stream for a closed pipe'); });
    expect(() => w.write('Usage: voicectl\n')).not.toThrow();
    expect(w.write('more\n')).toBe(true);
    closeSync(fd);
  });
});
