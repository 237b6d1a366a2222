/**
 * --default-country: a two-letter code that libphonenumber's metadata has. Read from the
 * metadata JSON rather than the library, so the main thread does not load the library
 * (13 MB) when worker threads do the checking.
 */
import { createRequire } from 'node:module';
import { UsageError } from '../errors.js';

const require = createRequire(import.meta.url);

let countries: Record<string, unknown> | undefined;

/** The country for numbers written without "+", upper-cased; a UsageError naming the flag when unknown. */
export function resolveDefaultCountry(value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const cc = value.trim().toUpperCase();
  countries ??= (require('libphonenumber-js/metadata.max.json') as { countries: Record<string, unknown> }).countries;
  if (!/^[A-Z]{2}$/.test(cc) || !Object.prototype.hasOwnProperty.call(countries, cc)) {
    throw new UsageError(`"${value}" is not a country code libphonenumber knows.`, {
      hint: 'Use a two-letter ISO 3166 code, for example --default-country IN, US or GB.',
    });
  }
  return cc;
}
