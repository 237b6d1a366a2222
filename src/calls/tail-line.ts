/**
 * One line per finished call for people: when it ended (in the user's zone, named), id,
 * number, contact, what it came to, how long, and the summary. On a terminal the line
 * fits its width: the summary is cut first, then the contact's name and the outcome, with
 * `…`; ids and numbers stay whole (--json has every field whole). Everything here came from the
 * service, so control characters are shown, not obeyed.
 */
import { finishedAt, num, outcomeLabel, str, type ListedCall } from './model.js';
import { duration, oneLine, truncate } from '../text/text.js';
import { terminalLine } from '../text/terminal-text.js';
import { clockTime, zoneAbbreviation } from '../util/time.js';

/** The narrowest a contact's name and the outcome are cut to before the line is cut at its end. */
const MIN_NAME = 6;
const MIN_OUTCOME = 10;
/** A summary cut shorter than this says nothing: it is left out. */
const MIN_SUMMARY = 8;

export function tailLine(call: ListedCall, columns?: number, zone = 'UTC'): string {
  const status = str(call.status);
  const label = outcomeLabel(call);
  const contact = call.contact && typeof call.contact === 'object' ? str((call.contact as Record<string, unknown>).name) : undefined;
  const at = finishedAt(call);
  const fields = [
    at === undefined ? clockTime(at, zone) : `${clockTime(at, zone)} ${zoneAbbreviation(zone, at)}`,
    call.call_id,
    str(call.phone_number) ?? '-',
    contact ? oneLine(contact) : '-',
    status && status !== label ? `${status}/${label}` : label,
    duration(num(call.duration_seconds), { missing: '-' }),
  ].map((f) => terminalLine(f));
  const summary = str(call.summary);
  const text = summary ? terminalLine(oneLine(summary)) : undefined;
  const head = () => fields.join('  ');
  if (!columns || columns <= 0) return text ? `${head()}  ${text}` : head();
  // Too wide even without the summary: the name, then the outcome, are cut; ids and numbers never.
  for (const [i, min] of [[3, MIN_NAME], [4, MIN_OUTCOME]] as const) {
    const over = head().length - columns;
    if (over > 0) fields[i] = truncate(fields[i]!, Math.max(min, fields[i]!.length - over));
  }
  const room = columns - head().length - 2;
  if (text && room >= MIN_SUMMARY) return `${head()}  ${truncate(text, room)}`;
  return truncate(head(), columns);
}
