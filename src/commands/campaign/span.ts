/**
 * Spans as the campaign verbs read them (7d, 36h, 90m, 2w): the option parsers of the
 * specs (definition.ts) and `campaign run`'s --deadline and --policy file read them alike.
 * A module of its own, so an action never imports values from its spec.
 */
import { InvalidArgumentError } from '@commander-js/extra-typings';

const MAX_SPAN_MS = 36_500 * 86_400_000;

export function spanMs(v: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(m|min|h|d|w)$/i.exec(v.trim());
  const unit: Record<string, number> = { m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
  const ms = m ? Number(m[1]) * unit[m[2]!.toLowerCase()]! : NaN;
  if (!Number.isFinite(ms) || ms <= 0) throw new InvalidArgumentError('expected a span such as 7d, 36h, 90m or 2w.');
  // Further back than any call: a span past the calendar's range cannot be sent as a date.
  if (ms > MAX_SPAN_MS) throw new InvalidArgumentError(`expected a span of at most ${MAX_SPAN_MS / 86_400_000}d (100 years), such as 7d, 36h, 90m or 2w.`);
  return ms;
}

/** A span or nothing: --deadline takes a span (36h) or a time. */
export function spanOrUndefined(v: string): number | undefined {
  try {
    return spanMs(v);
  } catch {
    return undefined;
  }
}
