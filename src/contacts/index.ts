/**
 * Contacts from spreadsheets: what `contacts validate` and `campaign create --csv` share.
 *
 *   const { report, contacts } = await validateContactsFile('leads.csv', { defaultCountry: 'IN' });
 *
 * File-level problems (missing file, empty, no phone column, unbalanced quotes, binary or
 * not UTF-8 ...) are thrown as UsageError; bad rows are in `report.errors`.
 */
export { validateContactsFile, type ValidateOptions } from './validate.js';
export {
  assertCampaignSize,
  MAX_CONTACTS_PER_CAMPAIGN,
  partName,
  splitContacts,
  writeErrorsCsv,
  type Contact,
  type DuplicateRow,
  type Report,
  type RowError,
  type ValidationResult,
} from './report.js';
export { createPhoneCheck, createRowCheck, resolveDefaultCountry, type RowCheck } from './phone.js';
export { isE164 } from './e164.js';
