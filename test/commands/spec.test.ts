/** The Examples block a verb's help shows, rendered from its spec's examples. */
import { describe, expect, it } from 'vitest';
import { exampleCommand, exampleLines } from '../../src/commands/spec.js';

describe('exampleLines', () => {
  it('lines the comments up two spaces after the longest commented command', () => {
    expect(exampleLines([
      { command: 'voicectl sandbox &', comment: 'then paste the export line it prints' },
      { command: 'voicectl pull account/', comment: 'the account as files' },
      { command: 'voicectl pull account/ --lock lock.json --yes' },
    ])).toEqual([
      '  voicectl sandbox &      # then paste the export line it prints',
      '  voicectl pull account/  # the account as files',
      '  voicectl pull account/ --lock lock.json --yes',
    ]);
  });

  it('continues a long command over lines, and runs it as one', () => {
    const example = { command: ['voicectl campaign run --csv leads.csv', '--default-country IN --dry-run'] };
    expect(exampleLines([example])).toEqual(['  voicectl campaign run --csv leads.csv \\\n    --default-country IN --dry-run']);
    expect(exampleCommand(example)).toBe('voicectl campaign run --csv leads.csv --default-country IN --dry-run');
  });
});
