/** --default-country: a two-letter code that libphonenumber's metadata has. */
import { UsageError } from '../errors.js';
/** The error for a country code libphonenumber does not know, naming the flag. */
export function unknownCountry(value) {
    return new UsageError(`"${value}" is not a country code libphonenumber knows.`, {
        hint: 'Use a two-letter ISO 3166 code, for example --default-country IN, US or GB.',
    });
}
/** Two letters, upper-cased; anything else fails here, before any library loads. */
export function normalizeCountry(value) {
    if (value === undefined || value.trim() === '')
        return undefined;
    const cc = value.trim().toUpperCase();
    if (!/^[A-Z]{2}$/.test(cc))
        throw unknownCountry(value);
    return cc;
}
