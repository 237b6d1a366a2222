/** Reads a text file the user named for an agent (a prompt, an agent's JSON), or standard input for "-". */
import { UsageError } from '../errors.js';

export async function readTextFile(path: string, what: string, stdin?: NodeJS.ReadableStream, signal?: AbortSignal): Promise<string> {
  // Loaded here: `agent list` and `get` load this module (through their fields), and node:fs costs them a few ms.
  const { readUserTextOr } = await import('../util/user-file.js');
  // "-" is standard input: `voicectl agent get X --json | voicectl agent create --file -`.
  return readUserTextOr(path, { stdin, signal }, (reason) => new UsageError(`Cannot read ${what} "${path}": ${reason}.`));
}
