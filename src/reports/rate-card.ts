/**
 * The user's rate card (`--rate-card rates.yaml`, the profile's `rate_card`, or the
 * policy file's `rate_card`): what a call costs them, since the service shows no prices.
 *
 *   currency: INR                 # ISO 4217
 *   rates:
 *     IN: {per_minute: 1.20, connection: 0.10, min_seconds: 30}
 *     US: {per_minute: 0.09}
 *   billing_increment_seconds: 60 # optional: time is billed in whole increments (default 60)
 *   charge_unanswered: false      # optional: unanswered and failed calls cost nothing (default)
 *
 * Money is integer minor units of the currency (paise, cents) throughout. A call costs
 * connection + per_minute x billed minutes, where billed seconds are the call's
 * duration_seconds, raised to min_seconds, rounded up to the billing increment; the
 * call's figure is rounded half up to a minor unit once, and calls are summed as
 * integers. A country the card does not price is "unpriced", never 0.
 */
import { parse as parseYaml } from 'yaml';
import { UsageError } from '../errors.js';
import { readUserTextOr } from '../util/user-file.js';
import { isObject } from '../util/is-object.js';

export interface Rate {
  /** Millionths of the currency's major unit, so 0.0125 per minute is exact. */
  per_minute_micros: number;
  connection_micros: number;
  min_seconds: number;
}

export interface RateCard {
  currency: string;
  /** Digits after the decimal point in the currency (INR 2, JPY 0, BHD 3). */
  exponent: number;
  rates: Record<string, Rate>;
  increment_seconds: number;
  charge_unanswered: boolean;
  /** Where it was read from, for messages. */
  source: string;
}

const MICROS = 1_000_000;

function fail(source: string, msg: string): UsageError {
  return new UsageError(`${source}: ${msg}`, {
    hint: 'A rate card looks like: currency: INR, then rates: {IN: {per_minute: 1.20, connection: 0.10}, US: {per_minute: 0.09}} (docs/campaign-run.md, "Guardrails").',
  });
}

function currencyExponent(code: string): number | undefined {
  try {
    const f = new Intl.NumberFormat('en', { style: 'currency', currency: code });
    if (!Intl.supportedValuesOf('currency').includes(code)) return undefined;
    return f.resolvedOptions().maximumFractionDigits;
  } catch {
    return undefined;
  }
}

/** A price in major units (1.20) as exact millionths, refusing more precision than that. */
function micros(source: string, where: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw fail(source, `${where} must be a number, 0 or more`);
  const m = Math.round(v * MICROS);
  if (Math.abs(m / MICROS - v) > 1e-9) throw fail(source, `${where} has more than 6 decimal places`);
  if (m > Number.MAX_SAFE_INTEGER / 100_000) throw fail(source, `${where} is too large`);
  return m;
}

export function parseRateCard(text: string, source: string): RateCard {
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch (err) {
    throw fail(source, `not valid YAML or JSON (${(err as Error).message.split('\n')[0]})`);
  }
  if (!isObject(data)) throw fail(source, 'expected a mapping with currency and rates');
  const d = data;
  for (const k of Object.keys(d)) {
    if (!['currency', 'rates', 'billing_increment_seconds', 'charge_unanswered'].includes(k)) throw fail(source, `unknown field "${k}"`);
  }
  if (typeof d.currency !== 'string' || !/^[A-Za-z]{3}$/.test(d.currency)) throw fail(source, 'currency must be an ISO 4217 code such as INR or USD');
  const currency = d.currency.toUpperCase();
  const exponent = currencyExponent(currency);
  if (exponent === undefined) throw fail(source, `currency "${d.currency}" is not an ISO 4217 code`);
  const table = d.rates;
  if (!isObject(table)) throw fail(source, 'rates must map country codes to {per_minute, connection, min_seconds}');
  const rates: Record<string, Rate> = {};
  for (const [cc, raw] of Object.entries(table)) {
    if (!/^[A-Za-z]{2}$/.test(cc)) throw fail(source, `rates: "${cc}" is not a two-letter country code (IN, US, GB)`);
    const code = cc.toUpperCase();
    if (rates[code]) throw fail(source, `rates: ${code} appears twice`);
    if (!isObject(raw)) throw fail(source, `rates.${cc} must be {per_minute, connection?, min_seconds?}`);
    const r = raw;
    for (const k of Object.keys(r)) {
      if (!['per_minute', 'connection', 'min_seconds'].includes(k)) throw fail(source, `rates.${cc}: unknown field "${k}"`);
    }
    if (r.per_minute === undefined) throw fail(source, `rates.${cc}.per_minute is required`);
    const min = r.min_seconds ?? 0;
    if (typeof min !== 'number' || !Number.isInteger(min) || min < 0) throw fail(source, `rates.${cc}.min_seconds must be a whole number of seconds`);
    rates[code] = {
      per_minute_micros: micros(source, `rates.${cc}.per_minute`, r.per_minute),
      connection_micros: micros(source, `rates.${cc}.connection`, r.connection ?? 0),
      min_seconds: min,
    };
  }
  if (Object.keys(rates).length === 0) throw fail(source, 'rates is empty');
  const inc = d.billing_increment_seconds ?? 60;
  if (typeof inc !== 'number' || !Number.isInteger(inc) || inc < 1 || inc > 3600) throw fail(source, 'billing_increment_seconds must be a whole number from 1 to 3600');
  const unanswered = d.charge_unanswered ?? false;
  if (typeof unanswered !== 'boolean') throw fail(source, 'charge_unanswered must be true or false');
  return { currency, exponent, rates, increment_seconds: inc, charge_unanswered: unanswered, source };
}

/**
 * Reads and checks a rate card before anything is sent (exit 2 naming it). `label` is how
 * messages and the spend name the card: "--rate-card rates.yaml", "rates.yaml (rate_card
 * in run.yaml, line 4)", "/home/me/rates.yaml (the profile's rate_card)".
 */
export async function readRateCard(path: string, label: string): Promise<RateCard> {
  const text = await readUserTextOr(path, { maxBytes: 1024 * 1024 }, (reason) => fail(label, reason));
  return parseRateCard(text, label);
}

/** Where a command may find the rate card, each already resolved to an absolute path. */
export interface RateCardSources {
  /** --rate-card FILE: the path as typed, and absolute. */
  flag?: { typed: string; path: string };
  /** The policy file's rate_card. */
  policy?: { path: string; label: string };
  /** A run's own card, kept in its journal since it started. */
  journal?: RateCard;
  /** The profile's rate_card (stored absolute by `config set`). */
  profile?: string;
}

/**
 * The rate card that applies: --rate-card, else the policy file's, else the run's own,
 * else the profile's (docs/campaign-run.md, "Guardrails"). Only that one is read.
 */
export async function chooseRateCard(s: RateCardSources): Promise<RateCard | undefined> {
  if (s.flag) return readRateCard(s.flag.path, `--rate-card ${s.flag.typed}`);
  if (s.policy) return readRateCard(s.policy.path, s.policy.label);
  if (s.journal) return s.journal;
  if (s.profile) {
    try {
      return await readRateCard(s.profile, `${s.profile} (the profile's rate_card)`);
    } catch (err) {
      if (err instanceof UsageError) {
        throw new UsageError(err.message, { hint: 'Fix the file, point the profile at another with `voicectl config set rate_card FILE`, or remove it with `voicectl config unset rate_card`.' });
      }
      throw err;
    }
  }
  return undefined;
}

/** Seconds billed for a call of this length at this rate. */
export function billedSeconds(card: RateCard, rate: Rate, seconds: number): number {
  const s = Math.max(Math.ceil(Math.max(0, seconds)), rate.min_seconds);
  return Math.ceil(s / card.increment_seconds) * card.increment_seconds;
}

/** One call's cost in minor units, or undefined when the country is unpriced. */
export function callCost(card: RateCard, country: string | undefined, seconds: number, connected: boolean): number | undefined {
  const rate = country ? card.rates[country.toUpperCase()] : undefined;
  if (!rate) return undefined;
  if (!connected && !card.charge_unanswered) return 0;
  const billed = billedSeconds(card, rate, seconds);
  // Exact integer arithmetic in millionths of a minor unit's 1/60: per_minute x seconds / 60.
  const microsTotal = rate.connection_micros * 60 + rate.per_minute_micros * billed; // millionths x 60
  const perMinor = (MICROS / 10 ** card.exponent) * 60;
  return Math.floor((microsTotal + perMinor / 2) / perMinor);
}

export interface Spend {
  currency: string;
  exponent: number;
  /** Minor units over priced calls. */
  minor: number;
  calls: number;
  /** Calls per country the card does not price (or whose country is unknown). */
  unpriced: Record<string, number>;
}

export function emptySpend(card: RateCard): Spend {
  return { currency: card.currency, exponent: card.exponent, minor: 0, calls: 0, unpriced: {} };
}

export function addCall(spend: Spend, card: RateCard, country: string | undefined, seconds: number, connected: boolean): void {
  const c = callCost(card, country, seconds, connected);
  if (c === undefined) {
    const k = country?.toUpperCase() ?? 'unknown';
    spend.unpriced[k] = (spend.unpriced[k] ?? 0) + 1;
    return;
  }
  spend.minor += c;
  spend.calls++;
}

/** 123456 minor units of INR as "INR 1,234.56". */
export function money(minor: number, currency: string, exponent: number): string {
  const major = minor / 10 ** exponent;
  return `${currency} ${major.toLocaleString('en-US', { minimumFractionDigits: exponent, maximumFractionDigits: exponent })}`;
}

/** As JSON: integer minor units beside their text, so no reader parses a float. */
export function spendJson(s: Spend): Record<string, unknown> {
  return {
    currency: s.currency,
    minor_units: s.minor,
    amount: (s.minor / 10 ** s.exponent).toFixed(s.exponent),
    priced_calls: s.calls,
    unpriced: s.unpriced,
  };
}

/**
 * A forecast's cost range: for each country, `calls` dials of which `connect_rate`
 * connect for `talk_seconds` on average (low: all billed at the mean; high: each
 * connected call billed one increment more, and every dial connecting).
 */
export function forecastCost(card: RateCard, byCountry: Record<string, { calls: number; connect_rate: number; talk_seconds: number }>): { low: number; high: number; unpriced: Record<string, number> } {
  let low = 0;
  let high = 0;
  const unpriced: Record<string, number> = {};
  for (const [cc, f] of Object.entries(byCountry)) {
    const rate = card.rates[cc.toUpperCase()];
    if (!rate) {
      unpriced[cc] = (unpriced[cc] ?? 0) + f.calls;
      continue;
    }
    const connected = Math.round(f.calls * f.connect_rate);
    const one = callCost(card, cc, f.talk_seconds, true)!;
    const oneHigh = callCost(card, cc, f.talk_seconds + card.increment_seconds, true)!;
    const unans = card.charge_unanswered ? callCost(card, cc, 30, false)! : 0;
    low += connected * one + (f.calls - connected) * unans;
    high += f.calls * oneHigh;
  }
  return { low, high, unpriced };
}
