/**
 * One line per finished call for people: when it ended, id, number, contact, what it
 * came to, how long, and the summary cut to the terminal's width. Everything here came
 * from the service, so control characters are shown, not obeyed.
 */
import { clockTime, finishedAt, formatDuration, num, oneLine, outcomeLabel, str, type ListedCall } from '../watch/calls.js';
import { terminalLine } from '../io/terminal-text.js';

export function tailLine(call: ListedCall, columns?: number): string {
  const status = str(call.status);
  const label = outcomeLabel(call);
  const contact = call.contact && typeof call.contact === 'object' ? str((call.contact as Record<string, unknown>).name) : undefined;
  const head = [
    clockTime(finishedAt(call)),
    call.call_id,
    str(call.phone_number) ?? '-',
    contact ? oneLine(contact) : '-',
    status && status !== label ? `${status}/${label}` : label,
    formatDuration(num(call.duration_seconds)),
  ].map((f) => terminalLine(f)).join('  ');
  const summary = str(call.summary);
  if (!summary) return head;
  const text = terminalLine(oneLine(summary));
  if (!columns || columns <= 0) return `${head}  ${text}`;
  const room = columns - head.length - 2;
  if (room < 8) return head;
  return `${head}  ${text.length > room ? `${text.slice(0, room - 1)}…` : text}`;
}
