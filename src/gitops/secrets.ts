/**
 * Signing secrets of endpoints apply created, kept outside the committed folder in a
 * file only its owner can read.
 */
import { chmod, readFile, rename, writeFile } from 'node:fs/promises';
import { tempPathFor } from '../export/atomic-file.js';
import { FailureError } from '../errors.js';

export async function saveSecrets(file: string, handle: string, id: string, secret: string): Promise<void> {
  let data: Record<string, unknown> = {};
  try {
    data = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new FailureError(`cannot read ${file} to add the secret of webhook ${handle}: ${(err as Error).message}`);
  }
  data[handle] = { id, secret };
  const temp = tempPathFor(file);
  await writeFile(temp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
  await chmod(temp, 0o600);
  await rename(temp, file);
}
