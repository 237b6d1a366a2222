/**
 * English names of the countries contact files come from most, for error messages.
 * Intl.DisplayNames knows them all, but creating one loads ICU's region data (~30-100
 * ms, more than validating 10,000 rows), so it is asked only for countries not listed.
 */
const NAMES: Record<string, string> = {
  IN: 'India', US: 'United States', GB: 'United Kingdom', CA: 'Canada', AU: 'Australia', NZ: 'New Zealand',
  IE: 'Ireland', AE: 'United Arab Emirates', SA: 'Saudi Arabia', QA: 'Qatar', KW: 'Kuwait', OM: 'Oman',
  BH: 'Bahrain', SG: 'Singapore', MY: 'Malaysia', ID: 'Indonesia', TH: 'Thailand', PH: 'Philippines',
  VN: 'Vietnam', HK: 'Hong Kong', CN: 'China', JP: 'Japan', KR: 'South Korea', BD: 'Bangladesh',
  PK: 'Pakistan', LK: 'Sri Lanka', NP: 'Nepal', BT: 'Bhutan', MV: 'Maldives', AF: 'Afghanistan',
  DE: 'Germany', FR: 'France', NL: 'Netherlands', BE: 'Belgium', ES: 'Spain', IT: 'Italy', PT: 'Portugal',
  CH: 'Switzerland', AT: 'Austria', SE: 'Sweden', NO: 'Norway', DK: 'Denmark', FI: 'Finland', PL: 'Poland',
  ZA: 'South Africa', NG: 'Nigeria', KE: 'Kenya', EG: 'Egypt', BR: 'Brazil', MX: 'Mexico', RU: 'Russia',
  IL: 'Israel', TR: 'Turkey', GG: 'Guernsey', JE: 'Jersey', IM: 'Isle of Man',
};

const ORDER = Object.keys(NAMES);

/** Where a country comes in the list above (contact files come from the first most): for ties. */
export function commonRank(code: string): number {
  const i = ORDER.indexOf(code);
  return i === -1 ? ORDER.length : i;
}

let intl: Intl.DisplayNames | undefined;

export function countryName(code: string): string {
  const known = NAMES[code];
  if (known) return known;
  try {
    intl ??= new Intl.DisplayNames(['en'], { type: 'region' });
    return intl.of(code) ?? code;
  } catch {
    return code;
  }
}

/** The country's English names: the list above's and Intl's (which may differ: "Türkiye", "Czechia"). */
export function countryNames(code: string): string[] {
  const names = new Set<string>();
  if (NAMES[code]) names.add(NAMES[code]!);
  try {
    intl ??= new Intl.DisplayNames(['en'], { type: 'region' });
    const n = intl.of(code);
    if (n && n !== code) names.add(n);
  } catch {
    // No ICU region data: the list above only.
  }
  return [...names];
}
