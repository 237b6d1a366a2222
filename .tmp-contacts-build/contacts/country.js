/** --default-country: a two-letter code that libphonenumber's metadata has. */
import { isSupportedCountry } from 'libphonenumber-js/max';
import { UsageError } from '../errors.js';
/** The country for numbers written without "+", upper-cased; a UsageError naming the flag when unknown. */
export function resolveDefaultCountry(value) {
    if (value === undefined || value.trim() === '')
        return undefined;
    const cc = value.trim().toUpperCase();
    if (!isSupportedCountry(cc)) {
        throw new UsageError(`"${value}" is not a country code libphonenumber knows.`, {
            hint: 'Use a two-letter ISO 3166 code, for example --default-country IN, US or GB.',
        });
    }
    return cc;
}
