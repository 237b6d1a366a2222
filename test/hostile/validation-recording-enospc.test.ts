/**
 * A disk that fills up during `call recording --download FILE` (an injected ENOSPC on
 * the temporary file's write): the partial file is removed, and the
 * message names the file and the cause.
 */
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';

const injected = vi.hoisted(() => ({ failed: 0, tempPaths: [] as string[] }));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const createWriteStream = ((path: string, options?: unknown) => {
    const stream = fs.createWriteStream(path, options as never);
    if (/^\.rec\.wav\.\d+\.[0-9a-f]{8}\.tmp$/.test(basename(String(path)))) {
      injected.tempPaths.push(String(path));
      // The temporary file exists from here on (opened with "wx"); its first write fails.
      stream._write = (_chunk, _encoding, cb) => {
        injected.failed++;
        cb(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' }));
      };
      stream._writev = undefined;
    }
    return stream;
  }) as typeof fs.createWriteStream;
  return { ...fs, default: { ...fs, createWriteStream }, createWriteStream };
});

const { sharedHarness } = await import('../helpers/cli.js');
const { run } = await import('../helpers/run.js');
const { givenRecordedCall } = await import('../helpers/given.js');

const h = sharedHarness();
let callId = '';
beforeAll(async () => {
  callId = await givenRecordedCall(h.api);
});

describe('call recording --download FILE on a disk that fills up', () => {
  it('names the file and ENOSPC, exits 1 and leaves no partial file', async () => {
    const target = join(h.dir, 'rec.wav');
    const r = await run(['call', 'recording', callId, '--download', target], {
      env: { VOICECTL_BASE_URL: h.sandbox.url, VOICECTL_API_KEY: h.sandbox.apiKey },
    });
    expect(injected.tempPaths.length).toBe(1);
    expect(injected.failed).toBeGreaterThan(0);
    expect(r.stderr).toContain(`cannot write ${target}: no space left on the device (ENOSPC); nothing was saved.`);
    expect(r.exitCode).toBe(1);
    expect(readdirSync(h.dir)).toEqual([]);
  });
});
