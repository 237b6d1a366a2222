/** Reads a text file the user named for an agent (a prompt, an agent's JSON), or standard input for "-". */
import { UsageError } from '../errors.js';

export async function readTextFile(path: string, what: string, stdin?: NodeJS.ReadableStream): Promise<string> {
  // "-" is standard input: `voicectl agent get X --json | voicectl agent create --file -`.
  if (path === '-' && stdin) {
    const chunks: Buffer[] = [];
    for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    return Buffer.concat(chunks).toString('utf8');
  }
  try {
    // Loaded here: `agent list` and `get` load this module (through their fields), and node:fs/promises costs them a few ms.
    const { readFile } = await import('node:fs/promises');
    return await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : (err as Error).message;
    throw new UsageError(`Cannot read ${what} "${path}": ${why}.`);
  }
}
