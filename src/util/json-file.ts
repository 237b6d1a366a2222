import { readFile } from 'node:fs/promises';

/** Why a JSON file could not be used: it could not be read, or it is not JSON. */
export interface JsonFileProblem {
  kind: 'read' | 'json';
  error: Error;
}

/**
 * A JSON file's data, or undefined when there is no such file. A file that cannot be read
 * or is not JSON throws the error `fail` words for it (each caller names its own file).
 */
export async function readJsonFile(file: string, fail: (problem: JsonFileProblem) => Error): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw fail({ kind: 'read', error: err as Error });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw fail({ kind: 'json', error: err as Error });
  }
}
