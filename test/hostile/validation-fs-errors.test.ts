/** A file-system error that reaches main.ts unexplained still names the file and the cause. */
import { readFile } from 'node:fs/promises';
import { describe as group, expect, it } from 'vitest';
import { describe, exitCodeFor } from '../../src/main.js';
import { fsErrorReason } from '../../src/util/fs-error.js';

group('file-system errors in words', () => {
  it('names the path and the cause with its code, exit 1', async () => {
    const err = await readFile('/nonexistent-voicectl/file.csv').catch((e: unknown) => e);
    expect(describe(err).message).toBe('/nonexistent-voicectl/file.csv: no such file or folder (ENOENT)');
    expect(exitCodeFor(err)).toBe(1);
  });

  it('knows the causes people hit, and keeps the message of others', () => {
    const e = (code: string, message = `${code}: something`) => Object.assign(new Error(message), { code, syscall: 'write' });
    expect(fsErrorReason(e('ENOSPC'))).toBe('no space left on the device (ENOSPC)');
    expect(fsErrorReason(e('EACCES'))).toBe('permission denied (EACCES)');
    expect(fsErrorReason(e('EROFS'))).toBe('the file system is read-only (EROFS)');
    expect(fsErrorReason(e('EWHATEVER', 'EWHATEVER: odd'))).toBe('EWHATEVER: odd');
    expect(fsErrorReason(e('EODD', 'odd'))).toBe('odd (EODD)');
  });
});
