/** How validateContactsFile (validate.ts) reads a file; the worker engine (remote.ts) takes the same. */
export interface ValidateOptions {
  /** For numbers written without "+": a two-letter country code (the profile's default_country is the caller's to pass). */
  defaultCountry?: string;
  phoneColumn?: string;
  nameColumn?: string;
  /** --country-column: the row's country; by default a column headed country, Country Code, country_code or ISO. */
  countryColumn?: string;
  /** --sheet: which sheet of a workbook (a name, or a number from 1); an error for a CSV file. */
  sheet?: string;
  /** Keep rows whose number repeats an earlier row's (they are still counted in `duplicates`). */
  keepDuplicates?: boolean;
  /** Build `contacts` (default true); `contacts validate` does not need them. */
  collectContacts?: boolean;
  /** Keep the cells of bad rows for --errors-out (default true). */
  collectInvalidRows?: boolean;
  /** Called as rows are checked, in file order. */
  onProgress?: (progress: { rows: number }) => void;
  signal?: AbortSignal;
  /**
   * Worker threads for the phone checks, beside this thread (0: none). Default: files
   * under 1 MiB on this thread alone; larger ones with one helper per further core (at
   * most 3); from 4 MiB, read in a worker thread whose memory is bounded.
   */
  workers?: number;
}

/**
 * The flags that make another command read a list as this one did (the same default
 * country, columns and sheet): a hint that names a command carries them, so that followed
 * as written it finds the same rows. `defaultCountry` is the one in effect (the flag's, or
 * the profile's), written out so that another profile cannot change it.
 */
export function readingArgs(how: { defaultCountry?: string; phoneColumn?: string; nameColumn?: string; countryColumn?: string; sheet?: string; keepDuplicates?: boolean }): string[] {
  const args: string[] = [];
  if (how.defaultCountry) args.push('--default-country', how.defaultCountry);
  if (how.phoneColumn !== undefined) args.push('--phone-column', how.phoneColumn);
  if (how.nameColumn !== undefined) args.push('--name-column', how.nameColumn);
  if (how.countryColumn !== undefined) args.push('--country-column', how.countryColumn);
  if (how.sheet !== undefined) args.push('--sheet', how.sheet);
  if (how.keepDuplicates) args.push('--keep-duplicates');
  return args;
}
