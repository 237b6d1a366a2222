/**
 * Signing secrets of endpoints apply created, kept outside the committed folder in a
 * file only its owner can read.
 */
import { readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { tempPathFor, writeFileAtomic } from '../util/atomic-file.js';
import { FailureError, UsageError } from '../errors.js';
import { fsErrorReason } from '../util/fs-error.js';
import { isObject } from '../util/is-object.js';

async function readSecrets(file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    // A FIFO or a device would block the read or make no sense as the file to replace.
    if (!(await stat(file)).isFile()) throw new Error('it is not a regular file');
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
  const data = JSON.parse(text) as unknown;
  if (!isObject(data)) throw new Error('it is not a JSON object');
  return data;
}

/**
 * Before anything is created: the file can be read and replaced. A secret is shown by
 * the service once, so a file found unwritable after the create would lose it.
 */
export async function checkSecretsFile(file: string): Promise<void> {
  const refuse = (why: string) => new UsageError(`--secrets-out ${file} cannot be used: ${why}. Nothing was sent.`, {
    hint: 'Choose a file in a folder you can write to, outside the account folder (for example ~/.config/voicectl/webhook-secrets.json).',
  });
  try {
    await readSecrets(file);
  } catch (err) {
    const message = (err as Error).message;
    throw refuse(err instanceof SyntaxError || message === 'it is not a JSON object' ? 'it is not a JSON object as voicectl writes it'
      : message === 'it is not a regular file' ? message : fsErrorReason(err));
  }
  // The file is replaced by renaming a temporary file beside it: that is what must work.
  const temp = tempPathFor(file);
  try {
    await writeFile(temp, '', { mode: 0o600, flag: 'wx' });
  } catch (err) {
    throw refuse(fsErrorReason(err));
  }
  await unlink(temp).catch(() => {});
}

export async function saveSecrets(file: string, handle: string, id: string, secret: string): Promise<void> {
  let data: Record<string, unknown>;
  try {
    data = await readSecrets(file);
  } catch (err) {
    throw new FailureError(`cannot read ${file} to add the secret of webhook ${handle}: ${(err as Error).message}`);
  }
  data[handle] = { id, secret };
  try {
    await writeFileAtomic(file, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
  } catch (err) {
    throw new FailureError(`cannot write ${file}: ${fsErrorReason(err)}`);
  }
}
