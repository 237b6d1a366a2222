/**
 * --harvest-dnc: the numbers whose calls held an opt-out request, added to a do-not-call
 * file (plain text, one E.164 number a line, as `--exclude` and the profile's
 * do_not_call_file read it): numbers already there stay, none is written twice, and the
 * file is replaced whole or not at all.
 */
import { readUserText, userFileReason } from '../util/user-file.js';
import { extname } from 'node:path';
import { UsageError } from '../errors.js';
import { writeFileAtomic } from '../util/atomic-file.js';

export async function harvestOptOuts(file: string, numbers: string[], defaultCountry: string | undefined): Promise<{ file: string; added: number; total: number }> {
  if (['.csv', '.xlsx', '.xls'].includes(extname(file).toLowerCase())) {
    throw new UsageError(`--harvest-dnc writes a plain text list (one number a line), not ${extname(file)}.`, { hint: 'Name a .txt file, for example --harvest-dnc do-not-call.txt.' });
  }
  const { createPhoneCheck, isE164, resolveDefaultCountry } = await import('../contacts/index.js');
  const check = createPhoneCheck(resolveDefaultCountry(defaultCountry));
  let existing = '';
  try {
    existing = (await readUserText(file)).replace(/^\uFEFF/, '');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new UsageError(`--harvest-dnc ${file}: ${userFileReason(err)}.`);
  }
  const lines = existing.split(/\r?\n/).filter((l) => l.trim() !== '');
  const known = new Set<string>();
  for (const line of lines) {
    const n = check(line.trim());
    known.add(isE164(n) ? n : line.trim());
  }
  const fresh: string[] = [];
  for (const raw of numbers) {
    const n = check(raw);
    if (!isE164(n) || known.has(n)) continue;
    known.add(n);
    fresh.push(n);
  }
  if (fresh.length > 0) await writeFileAtomic(file, [...lines, ...fresh].map((l) => `${l}\n`).join(''));
  return { file, added: fresh.length, total: lines.length + fresh.length };
}
