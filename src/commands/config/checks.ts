/**
 * The checks of the settings that contacts/ and campaigns/ understand, handed to
 * config/'s normalizeValue: config/ sits below the domains and imports none of them.
 */
import type { SettingChecks } from '../../config/store.js';
import { UsageError } from '../../errors.js';

export const SETTING_CHECKS: SettingChecks = {
  async default_country(value, raw) {
    const cc = value.toUpperCase();
    // libphonenumber-js knows the regions numbers can be normalized for, which is what
    // this setting is for; loaded here only (~30 ms).
    const { lpn } = await import('../../contacts/validity.js');
    if (!/^[A-Z]{2}$/.test(cc) || !lpn.isSupportedCountry(cc)) {
      throw new UsageError(`"${raw}" is not an ISO 3166 alpha-2 country code.`, { hint: 'Use two letters, for example IN, US or GB.' });
    }
    return cc;
  },
  async calling_hours(value, raw) {
    const { parseWindow, formatWindow, WINDOW_HELP } = await import('../../hours/calling-hours.js');
    const w = parseWindow(value);
    if (!w) throw new UsageError(`"${raw}" is not a window of calling hours.`, { hint: `Use ${WINDOW_HELP}.` });
    return formatWindow(w);
  },
  async rate_card(value) {
    // Stored absolute, as do_not_call_file is; read and checked now, so a run never meets a broken card.
    if (value === '') throw new UsageError('The rate card path is empty.', { hint: 'For example: voicectl config set rate_card ~/rates.yaml (docs/campaign-run.md, "Guardrails").' });
    const { resolve } = await import('node:path');
    const path = resolve(value);
    const { readRateCard } = await import('../../reports/rate-card.js');
    await readRateCard(path, path);
    return path;
  },
};
