/** One port rule for every verb that serves on this machine: listen, sandbox, watch --serve. */
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@commander-js/extra-typings';
import { portNumber } from '../../src/commands/shared.js';
import { run } from '../helpers/run.js';

describe('portNumber', () => {
  it.each([['0', 0], ['4010', 4010], ['65535', 65535], [' 80 ', 80]])('takes %j', (text, n) => {
    expect(portNumber(text)).toBe(n);
  });
  it.each(['65536', '70000', '-1', '1.5', 'abc', '', '0x50', '1e3'])('refuses %j', (text) => {
    expect(() => portNumber(text)).toThrow(InvalidArgumentError);
  });
});

describe('--port on each serving verb', () => {
  it.each([
    ['sandbox', '--port', '70000'],
    ['listen', '--port', '70000'],
    ['watch', 'CAMPAIGN', '--serve', '70000'],
  ])('%s refuses a port above 65535 with exit 2', async (...argv) => {
    const r = await run(argv, { env: { VOICECTL_ERROR_FORMAT: 'text' } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('expected a port number from 0 to 65535');
  });
});
