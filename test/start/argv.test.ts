import { describe, expect, it } from 'vitest';
import { asksForHelp, requestedGroup } from '../../src/argv.js';

describe('asksForHelp', () => {
  it.each([
    [[], true],
    [['--help'], true],
    [['-h'], true],
    [['help'], true],
    [['help', 'agent'], true],
    [['agent', '--help'], true],
    [['--base-url', 'http://x', 'help'], true],
    [['agent', 'create', '--name', '-h'], true], // a guess: the parse hands it back
    [['agent', 'list'], false],
    [['--version'], false],
    [['agent', 'get', '--', '--help'], false],
    [['--profile', 'help', 'agent', 'list'], false],
    [['agent', 'get', 'help'], false],
  ])('%j → %s', (argv, expected) => {
    expect(asksForHelp(argv)).toBe(expected);
  });
});

describe('requestedGroup', () => {
  it.each([
    [['agent', 'list'], 'agent'],
    [['--json', '-o', 'csv', 'call', 'list'], 'call'],
    [['help', 'kb'], 'kb'],
    [['--profile', 'help', 'kb'], 'kb'],
    [[], undefined],
  ])('%j → %s', (argv, expected) => {
    expect(requestedGroup(argv)).toBe(expected);
  });
});
