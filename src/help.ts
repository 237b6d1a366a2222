/**
 * Help without the verbs: the start path's answer to `voicectl --help`,
 * `voicectl help agent` and `voicectl agent create --help`. The same program as
 * src/main.ts builds, with every action replaced by a hand-off, so the text and the
 * exit codes are the same; a command line that turns out to run a command (a flag
 * value that happens to be `-h`) returns undefined and goes the usual way.
 */
import { Context, type OutStream } from './context.js';
import { commanderExitCode, EXIT, isCommanderError } from './errors.js';
import { directOutput } from './io/fd-write.js';
import { ActionRequested, buildProgram } from './program.js';

export { GROUP_NAMES } from './program.js';

export async function help(argv: string[]): Promise<number | undefined> {
  const ctx = new Context({
    io: {
      get stdin() {
        return process.stdin;
      },
      get stdout() {
        return output(1);
      },
      get stderr() {
        return output(2);
      },
    },
    env: process.env,
  });
  const program = buildProgram(ctx, argv, { helpOnly: true });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.OK;
  } catch (err) {
    if (err instanceof ActionRequested) return undefined;
    if (isCommanderError(err)) return commanderExitCode(err);
    throw err;
  }
}

const outputs = new Map<number, OutStream>();

/**
 * Standard output or error for a few kilobytes of help. A pipe, a file or /dev/null is
 * written directly (process.stdout would load Node's whole stream stack, a noticeable
 * part of what help costs); anything else, a terminal first, goes through process.stdout
 * or process.stderr, which know the terminal's width.
 */
function output(fd: 1 | 2): OutStream {
  let out = outputs.get(fd);
  if (!out) {
    out = directOutput(fd, () => (fd === 1 ? process.stdout : process.stderr));
    outputs.set(fd, out);
  }
  return out;
}

