/**
 * The spend in `campaign report`: what the finished calls cost by the user's rate card
 * (campaigns/run/rate-card.ts), per country, in integer minor units. A country the card
 * does not price is named "unpriced" with its calls, never counted as 0. The service shows
 * no prices, so without a rate card there is no figure at all: the report says how to
 * add one instead (NO_RATE_CARD).
 */
import { isFinished } from '../calls/model.js';
import { placeOf } from '../hours/phone-zones.js';
import { billedSeconds, callCost, money, type RateCard } from './rate-card.js';
import { plural } from '../text/text.js';

/** What the spend reads of a call (a report's call: stats.ts's ReportCall). */
export interface PricedCall {
  phone_number: string;
  status: string;
  duration_seconds: number | null;
  end_time: string | null;
}

export interface CountrySpend {
  /** ISO 3166 code, or "unknown" for a number whose country cannot be told. */
  country: string;
  /** Finished calls. */
  calls: number;
  /** Billed minutes of its connected calls; null when unpriced. */
  billed_minutes: number | null;
  /** null when the card has no rate for the country: unpriced, not free. */
  minor_units: number | null;
  amount: string | null;
}

export interface ReportSpend {
  currency: string;
  /** Where the rate card was read from. */
  rate_card: string;
  /** Priced calls only. */
  minor_units: number;
  amount: string;
  priced_calls: number;
  by_country: CountrySpend[];
  /** Calls per country the card does not price. */
  unpriced: Record<string, number>;
  /** The spend when the contacts not yet dialed are dialed once at this spend's average a priced call. */
  projected?: { contacts_left: number; minor_units: number; amount: string };
}

/** What a report says in place of a spend when there is no rate card: one line. */
export const NO_RATE_CARD = 'No rate card, so no spend: add one with --rate-card FILE or `voicectl config set rate_card FILE`.';

const amountOf = (minor: number, card: RateCard) => (minor / 10 ** card.exponent).toFixed(card.exponent);

/** The spend of these calls; `contactsLeft`: contacts not yet dialed, for the projected total. */
export function reportSpend(calls: PricedCall[], card: RateCard, o: { contactsLeft?: number } = {}): ReportSpend {
  const by = new Map<string, { calls: number; seconds: number; minor: number; priced: boolean }>();
  let minor = 0;
  let priced = 0;
  const unpriced: Record<string, number> = {};
  for (const c of calls) {
    if (!isFinished(c)) continue;
    const country = (c.phone_number ? placeOf(c.phone_number).country : undefined) ?? 'unknown';
    const rate = card.rates[country];
    const row = by.get(country) ?? { calls: 0, seconds: 0, minor: 0, priced: rate !== undefined };
    by.set(country, row);
    row.calls++;
    if (!rate) {
      unpriced[country] = (unpriced[country] ?? 0) + 1;
      continue;
    }
    const connected = c.status === 'completed';
    const cost = callCost(card, country, c.duration_seconds ?? 0, connected)!;
    if (connected || card.charge_unanswered) row.seconds += billedSeconds(card, rate, c.duration_seconds ?? 0);
    row.minor += cost;
    minor += cost;
    priced++;
  }
  const byCountry: CountrySpend[] = [...by.entries()]
    .sort(([a, x], [b, y]) => Number(y.priced) - Number(x.priced) || y.minor - x.minor || a.localeCompare(b))
    .map(([country, r]) => ({
      country,
      calls: r.calls,
      billed_minutes: r.priced ? r.seconds / 60 : null,
      minor_units: r.priced ? r.minor : null,
      amount: r.priced ? amountOf(r.minor, card) : null,
    }));
  const out: ReportSpend = {
    currency: card.currency, rate_card: card.source, minor_units: minor, amount: amountOf(minor, card),
    priced_calls: priced, by_country: byCountry, unpriced,
  };
  const left = o.contactsLeft ?? 0;
  if (left > 0 && priced > 0) {
    const total = minor + Math.round((minor / priced) * left);
    out.projected = { contacts_left: left, minor_units: total, amount: amountOf(total, card) };
  }
  return out;
}

/** Money as a person reads it: "INR 1,234.56". */
export function spendMoney(s: ReportSpend, minor: number): string {
  const exponent = s.amount.includes('.') ? s.amount.split('.')[1]!.length : 0;
  return money(minor, s.currency, exponent);
}

/** One line: "INR 1,234.56 on 96 calls; unpriced: 4 calls to US". */
export function spendLine(s: ReportSpend): string {
  const unpriced = Object.entries(s.unpriced).map(([cc, n]) => `${plural(n, 'call')} to ${cc}`).join(', ');
  const projected = s.projected ? `; about ${spendMoney(s, s.projected.minor_units)} in all when the ${plural(s.projected.contacts_left, 'contact')} left are dialed once` : '';
  return `${spendMoney(s, s.minor_units)} on ${plural(s.priced_calls, 'priced call')}${projected}${unpriced ? `; unpriced (no rate in the card): ${unpriced}` : ''}`;
}

/** The per-country table: country, calls, billed minutes, cost ("unpriced" where the card has no rate), then the total. */
export function spendRows(s: ReportSpend): string[][] {
  const rows = s.by_country.map((c) => [c.country, String(c.calls), c.billed_minutes === null ? '-' : String(c.billed_minutes), c.minor_units === null ? 'unpriced' : spendMoney(s, c.minor_units)]);
  rows.push(['total', String(s.by_country.reduce((n, c) => n + c.calls, 0)), String(s.by_country.reduce((n, c) => n + (c.billed_minutes ?? 0), 0)), `${spendMoney(s, s.minor_units)}${Object.keys(s.unpriced).length ? ' (priced calls)' : ''}`]);
  if (s.projected) rows.push([`projected (${plural(s.projected.contacts_left, 'contact')} left)`, '', '', spendMoney(s, s.projected.minor_units)]);
  return rows;
}

export const SPEND_HEAD = ['country', 'calls', 'billed minutes', 'cost'];
