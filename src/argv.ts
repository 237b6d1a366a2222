/**
 * What a command line asks for, read from its words before commander is loaded: the
 * start path uses it to load only what that command needs.
 */

/** Root options that take a value, so the group name is found after them. */
const ROOT_VALUE_OPTIONS = new Set(['--base-url', '--api-key', '--profile', '-o', '--output', '--timeout', '--tz', '--jq', '--template']);

/** Where the first word that is not a root option (or its value) is, and whether `--` came before it. */
function firstWord(argv: string[]): { index: number; afterDashes: boolean } {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') return { index: i + 1, afterDashes: true };
    if (!a.startsWith('-')) return { index: i, afterDashes: false };
    if (ROOT_VALUE_OPTIONS.has(a)) i++;
  }
  return { index: argv.length, afterDashes: false };
}

/** The group a command line asks for (`voicectl --json agent list` → agent), if any. */
export function requestedGroup(argv: string[]): string | undefined {
  const { index, afterDashes } = firstWord(argv);
  return !afterDashes && argv[index] === 'help' ? argv[index + 1] : argv[index];
}

/**
 * Whether a command line only asks for help (`voicectl`, `voicectl help agent`,
 * `voicectl agent create --help`): the start path answers those without the verbs.
 * A guess from the words alone; the parse decides (see src/help.ts).
 */
export function asksForHelp(argv: string[]): boolean {
  if (argv.length === 0) return true;
  for (const a of argv) {
    if (a === '--') return false;
    if (a === '-h' || a === '--help') return true;
  }
  const { index, afterDashes } = firstWord(argv);
  return !afterDashes && argv[index] === 'help';
}
