/**
 * A row's country, as people fill a "Country" column: an ISO 3166 alpha-2 code ("US",
 * "in"), an English name ("United States", "India", "UK"), a dial code ("+1", "91",
 * "0044"), or one of a few alpha-3 codes ("USA", "IND", "GBR", "ARE"). A dial code shared
 * by several countries stands for its main one ("+1" is US): libphonenumber still gives a
 * number of that code the country its digits belong to (+1 416 … is Canada).
 */
import type { CountryCode } from 'libphonenumber-js/max';
import { countryNames } from './country-names.js';
import { lpn } from './validity.js';
import { isObject } from '../util/is-object.js';

export type CountryCell = { country: CountryCode } | { error: string } | undefined;

/** Names and codes people write that are not a country's English name or alpha-2 code. */
const ALIASES: Record<string, string> = {
  uk: 'GB', 'great britain': 'GB', britain: 'GB', england: 'GB', scotland: 'GB', wales: 'GB', 'northern ireland': 'GB', gbr: 'GB',
  usa: 'US', america: 'US', 'united states of america': 'US', us: 'US', 'the united states': 'US',
  uae: 'AE', emirates: 'AE', are: 'AE', dubai: 'AE', 'abu dhabi': 'AE',
  ind: 'IN', bharat: 'IN', can: 'CA', aus: 'AU', nzl: 'NZ', sgp: 'SG', sau: 'SA', ksa: 'SA', qat: 'QA', kwt: 'KW', omn: 'OM', bhr: 'BH',
  pak: 'PK', bgd: 'BD', lka: 'LK', npl: 'NP', mys: 'MY', deu: 'DE', fra: 'FR', irl: 'IE', zaf: 'ZA', mex: 'MX',
  'south korea': 'KR', korea: 'KR', 'hong kong sar': 'HK', russia: 'RU', vietnam: 'VN', 'viet nam': 'VN', holland: 'NL', 'czech republic': 'CZ', turkey: 'TR',
};

/** Reads country cells, each distinct value once. */
export class CountryCells {
  private readonly cache = new Map<string, CountryCell>();
  private byName?: Map<string, string>;

  read(value: string): CountryCell {
    let found = this.cache.get(value);
    if (found === undefined && !this.cache.has(value)) {
      found = this.resolve(value);
      if (this.cache.size < 10_000) this.cache.set(value, found);
    }
    return found;
  }

  private resolve(value: string): CountryCell {
    const text = value.trim().replace(/^'/, '').trim();
    if (text === '') return undefined;
    const dial = /^(?:\+|00)?\s*(\d{1,4})$/.exec(text);
    if (dial) {
      const country = lpn.mainCountryOf(dial[1]!);
      return country ? { country } : { error: unknown(value, `no country has the dial code +${dial[1]}`) };
    }
    if (/^[A-Za-z]{2}$/.test(text)) {
      const code = text.toUpperCase() === 'UK' ? 'GB' : text.toUpperCase();
      return lpn.isSupportedCountry(code) ? { country: code as CountryCode } : { error: unknown(value, `${code} is not an ISO 3166 country code libphonenumber knows`) };
    }
    const name = text.toLowerCase().replace(/\./g, '').replace(/&/g, 'and').replace(/\s+/g, ' ').trim();
    const code = ALIASES[name] ?? ALIASES[name.replace(/^the /, '')] ?? this.names().get(name) ?? this.names().get(name.replace(/^the /, ''));
    if (code && lpn.isSupportedCountry(code)) return { country: code as CountryCode };
    return { error: unknown(value) };
  }

  /** English names of every country the library knows (Intl's, loaded only for a name not in the aliases). */
  private names(): Map<string, string> {
    if (!this.byName) {
      this.byName = new Map();
      for (const code of lpn.countries()) {
        for (const n of countryNames(code)) this.byName.set(n.toLowerCase().replace(/\./g, '').replace(/&/g, 'and'), code);
      }
    }
    return this.byName;
  }
}

function unknown(value: string, why?: string): string {
  return `country ${JSON.stringify(value.trim())} is not one voicectl can read${why ? ` (${why})` : ''}: write a two-letter ISO code (US, IN, GB, AE), an English country name (India, United Kingdom) or a dial code (+91)`;
}

/** Keys of a contact's `extra` that hold its country, as a spreadsheet's country column is headed (columns.ts). */
const COUNTRY_KEYS = new Set(['country', 'countrycode', 'iso']);

/**
 * The country a contact's `extra` names (the country column it was uploaded with), or
 * undefined when it names none or one that cannot be read: then the default country applies.
 */
export function countryInExtra(extra: unknown, cells: CountryCells): CountryCode | undefined {
  if (!isObject(extra)) return undefined;
  for (const [key, value] of Object.entries(extra)) {
    if (typeof value !== 'string' || !COUNTRY_KEYS.has(key.toLowerCase().replace(/[\s_.\-]+/g, ''))) continue;
    const read = cells.read(value);
    return read !== undefined && 'country' in read ? read.country : undefined;
  }
  return undefined;
}
