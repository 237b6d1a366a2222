/**
 * validateContactsFile: reads a CSV or .xlsx file, maps its columns, checks every phone
 * number and returns the report, the contacts to send and the bad rows. Nothing here
 * prints or sends anything; file-level problems are thrown as UsageError (exit 2).
 */
import { UsageError } from '../errors.js';
import type { CountryCode } from 'libphonenumber-js/max';
import type { NationalStyle } from './national-style.js';
import type { ValidateOptions } from './options.js';
import { extraOf, mapColumns, nameOf, type ColumnMap } from './columns.js';
import { readCsv, type Delimiter, type RecordSink } from './csv.js';
import { normalizeCountry } from './country.js';
import { isE164, isForeignStyleReason } from './e164.js';
import type { CountryCells } from './country-cell.js';
import type { RowCheck } from './phone.js';
import { PhoneSet } from './phone-set.js';
import type { PhonePool } from './pool.js';
import type { Contact, DuplicateRow, ForeignStyle, InvalidRow, RowError, ValidationResult } from './report.js';
import { emptyFile, openSource, type Source } from './source.js';
import { workerFile } from './worker-file.js';
import { hasControlCharacters } from '../text/terminal-text.js';
import { asShortJob } from '../util/short-run.js';

export type { ValidateOptions } from './options.js';

/**
 * Below this size (~25,000 rows) a file is checked on this thread alone: starting a
 * worker costs more than it saves (measured: 10,000 rows took 20% longer with one).
 */
const HELPERS_MIN_BYTES = 1024 * 1024;
/**
 * From this size (~100,000 rows) the file is read in the engine worker, whose heap can
 * be bounded; below it this thread's memory stays well within the budget anyway.
 */
const ENGINE_MIN_BYTES = 4 * 1024 * 1024;
/** Batches waiting for their turn before reading pauses, and the level at which it resumes. */
const MAX_QUEUED = 8;
const RESUME_AT = 4;
/** Rows per worker message: large enough that messaging costs little. */
const POOL_BATCH_ROWS = 2000;

export async function validateContactsFile(path: string, options: ValidateOptions = {}): Promise<ValidationResult> {
  normalizeCountry(options.defaultCountry);
  const source = await openSource(path);
  if (options.sheet !== undefined && source.kind !== 'xlsx') {
    throw new UsageError(`--sheet applies to .xlsx workbooks, and ${source.name} is a text (CSV) file, which has one sheet.`, { hint: 'Leave out --sheet.' });
  }
  // The worker threads' modules (and node:worker_threads) load only for a file large enough to use them.
  const pool = options.workers !== undefined || source.size >= HELPERS_MIN_BYTES ? await import('./pool.js') : undefined;
  const helpers = options.workers ?? (pool ? pool.defaultPoolSize() : 0);
  const engine = workerFile('engine-worker');
  if (options.workers === undefined && helpers > 0 && source.size >= ENGINE_MIN_BYTES && engine) {
    const { EngineOutOfMemory, validateInWorker } = await import('./remote.js');
    try {
      return await validateInWorker(engine, path, options, helpers);
    } catch (err) {
      if (!(err instanceof EngineOutOfMemory)) throw err;
      // So many bad rows that the bounded heap could not hold them: correctness first.
    }
  }
  // Checked here (with helpers from 1 MiB): a second or two at most, too short for V8's
  // optimizing compiler or a larger young generation to pay for itself
  // (src/util/short-run.ts). The engine's fallback for a file of millions of rows is a
  // long job: it keeps V8's defaults.
  const check = () => validateHere(source, options, helpers, pool?.PhonePool);
  return source.size >= ENGINE_MIN_BYTES ? check() : asShortJob(check);
}

async function validateHere(source: Source, options: ValidateOptions, workers: number, Pool: typeof PhonePool | undefined): Promise<ValidationResult> {
  // libphonenumber loads here, not on a thread that hands the file to the engine worker.
  const [{ createRowCheck, resolveDefaultCountry }, { CountryCells }] = await Promise.all([import('./phone.js'), import('./country-cell.js')]);
  const defaultCountry = resolveDefaultCountry(options.defaultCountry);
  // This thread checks numbers too (always for small files; for large ones whenever the
  // workers are busy), so the workers plus this thread use every core.
  const check = createRowCheck(defaultCountry);
  const pool = workers > 0 && Pool ? new Pool(workers, defaultCountry) : undefined;
  const style = defaultCountry ? new (await import('./national-style.js')).NationalStyle(defaultCountry as CountryCode) : undefined;
  const run = new Run(source.name, options, check, new CountryCells(), pool, style);
  try {
    let delimiter: Delimiter = ',';
    // The workbook reader (and node:zlib) loads only for a workbook.
    if (source.kind === 'xlsx') await (await import('./xlsx.js')).readXlsx(source, run, { sheet: options.sheet, phoneColumn: options.phoneColumn });
    else ({ delimiter } = await readCsv(source, run, options.signal));
    return await run.finish(delimiter);
  } finally {
    await run.close();
  }
}

interface Batch {
  rows: number[];
  /** The rows' cells, kept only when contacts or bad rows are collected. */
  cells: string[][] | undefined;
  phones: string[];
  /** Each row's own country from the country column (null: none), when the file has one. */
  countries?: Array<string | null>;
  /** Rows (by index in the batch) whose country cell could not be read. */
  countryErrors?: Map<number, { value: string; message: string }>;
  /** Rows (by index in the batch) with a non-empty cell beyond the header's width. */
  shifted?: Map<number, { value: string; cellCount: number }>;
}

interface Waiter {
  promise: Promise<void>;
  resolve(): void;
  reject(err: unknown): void;
}

function waiter(): Waiter {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Someone may stop waiting before it settles (a failed read); that is not an unhandled rejection.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/** One validation: receives records in file order and keeps the counts, in file order too. */
class Run implements RecordSink {
  private columns?: ColumnMap;
  private total = 0;
  private checked = 0;
  private valid = 0;
  private errors: RowError[] = [];
  private duplicateRows: DuplicateRow[] = [];
  private contacts: Contact[] = [];
  private invalidRows: InvalidRow[] = [];
  private controlRows: number[] = [];
  private controlRowCount = 0;
  private unnamedRows: number[] = [];
  private unnamedRowCount = 0;
  private seen = new PhoneSet();
  /** Numbers written in another country's national style, by that country (or those countries). */
  private foreign = new Map<string, ForeignStyle>();
  /** Batches sent to the pool, oldest first; each is counted only when those before it are. */
  private queue: Array<{ batch: Batch; results?: string[] }> = [];
  /** Rows gathered for the next pool batch. */
  private pending?: Batch;
  private paused?: Waiter;
  private idle?: Waiter;
  private failure: unknown;
  private readonly onAbort = () => this.fail(this.options.signal!.reason);

  constructor(
    private readonly fileName: string,
    private readonly options: ValidateOptions,
    private readonly check: RowCheck,
    private readonly countryCells: CountryCells,
    private readonly pool: PhonePool | undefined,
    private readonly style?: NationalStyle,
  ) {
    options.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  records(records: string[][], firstRow: number): Promise<void> | void {
    if (this.failure !== undefined) throw this.failure;
    const keepCells = this.options.collectContacts !== false || this.options.collectInvalidRows !== false;
    // Inline, each piece of the file is checked as it comes; for the pool, pieces are
    // gathered into batches large enough to be worth a message.
    const batch: Batch = this.pending ?? { rows: [], cells: keepCells ? [] : undefined, phones: [] };
    const before = batch.rows.length;
    for (let i = 0; i < records.length; i++) {
      const cells = records[i]!;
      if (isBlank(cells)) continue;
      if (!this.columns) {
        this.columns = mapColumns(cells, this.options, this.fileName);
        continue;
      }
      const width = this.columns.headers.length;
      if (cells.length > width) {
        const stray = cells.findIndex((c, idx) => idx >= width && c.trim() !== '');
        if (stray !== -1) (batch.shifted ??= new Map()).set(batch.rows.length, { value: cells[stray]!, cellCount: cells.length });
      }
      const columns = this.columns;
      if ((columns.name !== undefined || columns.firstName !== undefined || columns.lastName !== undefined) && nameOf(columns, cells) === undefined) {
        this.unnamedRowCount++;
        if (this.unnamedRows.length < MAX_STYLE_ROWS) this.unnamedRows.push(firstRow + i);
      }
      if (cells.some(hasControlCharacters)) {
        this.controlRowCount++;
        if (this.controlRows.length < MAX_CONTROL_ROWS) this.controlRows.push(firstRow + i);
      }
      if (this.columns.country !== undefined) {
        const value = cells[this.columns.country] ?? '';
        const read = this.countryCells.read(value);
        if (read !== undefined && 'error' in read) (batch.countryErrors ??= new Map()).set(batch.rows.length, { value, message: read.error });
        (batch.countries ??= []).push(read !== undefined && 'country' in read ? read.country : null);
      }
      batch.rows.push(firstRow + i);
      batch.cells?.push(cells);
      batch.phones.push(cells[this.columns.phone] ?? '');
    }
    this.total += batch.rows.length - before;
    if (!this.pool) {
      if (batch.rows.length > 0) this.accept(batch, this.checkHere(batch));
      return;
    }
    this.pending = batch;
    if (batch.rows.length >= POOL_BATCH_ROWS) return this.dispatch();
  }

  /**
   * Checks the gathered batch: on a worker when one has room, otherwise here and now.
   * Results are counted in file order; a promise while too many batches wait.
   */
  private dispatch(): Promise<void> | void {
    const batch = this.pending;
    this.pending = undefined;
    if (!batch || batch.rows.length === 0) return;
    const entry: { batch: Batch; results?: string[] } = { batch };
    this.queue.push(entry);
    if (this.pool!.hasRoom()) {
      this.pool!.check(batch.phones, batch.countries).then((results) => {
        entry.results = results;
        this.drain();
      }, () => {
        // A helper that failed (out of its bounded memory, say) only costs speed: this
        // thread checks its batches, and the pool takes no more.
        if (this.failure !== undefined) return;
        entry.results = this.checkHere(batch);
        this.drain();
      });
    } else {
      entry.results = this.checkHere(batch);
      this.drain();
    }
    if (this.queue.length >= MAX_QUEUED) {
      this.paused ??= waiter();
      return this.paused.promise;
    }
  }

  async finish(delimiter: Delimiter): Promise<ValidationResult> {
    if (this.failure === undefined) void this.dispatch();
    if (this.queue.length > 0) {
      this.idle ??= waiter();
      await this.idle.promise;
    }
    if (this.failure !== undefined) throw this.failure;
    const columns = this.columns;
    if (!columns) throw emptyFile(this.fileName);
    if (this.total === 0) {
      throw new UsageError(`${this.fileName} has a header row but no contacts below it.`, { hint: 'Add one contact per row under the header, or check that you exported the right sheet.' });
    }
    const invalid = this.errors.length;
    return {
      report: {
        total_rows: this.total,
        valid: this.valid,
        invalid,
        duplicates: this.duplicateRows.length,
        errors: this.errors,
        duplicate_rows: this.duplicateRows,
      },
      contacts: this.contacts,
      invalidRows: this.invalidRows,
      controlRows: this.controlRows,
      controlRowCount: this.controlRowCount,
      unnamedRows: this.unnamedRows,
      unnamedRowCount: this.unnamedRowCount,
      foreignStyle: [...this.foreign.values()],
      headers: columns.headers,
      phoneColumn: columns.headers[columns.phone]!,
      ...(columns.country !== undefined ? { countryColumn: columns.headers[columns.country]! } : {}),
      nameColumns: [columns.name, columns.firstName, columns.lastName].filter((i): i is number => i !== undefined).map((i) => columns.headers[i]!),
      delimiter,
    };
  }

  async close(): Promise<void> {
    this.options.signal?.removeEventListener('abort', this.onAbort);
    await this.pool?.close();
  }

  /** The batch's results, checked on this thread. */
  private checkHere(batch: Batch): string[] {
    const { phones, countries } = batch;
    const results = new Array<string>(phones.length);
    for (let i = 0; i < phones.length; i++) results[i] = this.check(phones[i]!, countries?.[i] ?? undefined);
    return results;
  }

  private drain(): void {
    while (this.queue.length > 0 && this.queue[0]!.results) {
      const { batch, results } = this.queue.shift()!;
      this.accept(batch, results!);
    }
    if (this.paused && this.queue.length <= RESUME_AT) {
      this.paused.resolve();
      this.paused = undefined;
    }
    if (this.idle && this.queue.length === 0) {
      this.idle.resolve();
      this.idle = undefined;
    }
  }

  /** A cell read with the default country but written the way another country writes its numbers. */
  private noteStyle(row: number, cell: string, valid: boolean): void {
    const countries = this.style!.countriesOf(cell);
    if (!countries) return;
    const key = [...countries].sort().join(',');
    let entry = this.foreign.get(key);
    if (!entry) {
      entry = { countries: countries.map((c) => this.style!.describe(c)), home: this.style!.describe(), count: 0, valid: 0, rows: [], example: cell.trim() };
      this.foreign.set(key, entry);
    }
    entry.count++;
    if (valid) entry.valid++;
    if (entry.rows.length < MAX_STYLE_ROWS) entry.rows.push(row);
  }

  private fail(err: unknown): void {
    if (this.failure !== undefined) return;
    this.failure = err;
    this.paused?.reject(err);
    this.idle?.reject(err);
  }

  private accept(batch: Batch, results: string[]): void {
    const columns = this.columns!;
    const phoneHeader = columns.headers[columns.phone]!;
    const collect = this.options.collectContacts !== false;
    const collectInvalid = this.options.collectInvalidRows !== false;
    for (let i = 0; i < batch.rows.length; i++) {
      const row = batch.rows[i]!;
      const shifted = batch.shifted?.get(i);
      let message: string | undefined;
      const countryError = batch.countryErrors?.get(i);
      if (shifted) {
        message = `has ${shifted.cellCount} cells but the header has ${columns.headers.length}: a value probably contains an unquoted separator, which shifts the columns; quote that value or remove the separator`;
        this.errors.push({ row, column: '(row)', value: shifted.value, message });
      } else if (countryError) {
        message = countryError.message;
        this.errors.push({ row, column: columns.headers[columns.country!]!, value: countryError.value, message });
      } else {
        // A row with its own country, or refused for another country's style, needed no guess.
        if (this.style && !batch.countries?.[i] && !isForeignStyleReason(results[i]!)) this.noteStyle(row, batch.phones[i]!, isE164(results[i]!));
        if (!isE164(results[i]!)) {
          message = results[i]!;
          this.errors.push({ row, column: phoneHeader, value: batch.phones[i]!, message });
        }
      }
      if (message !== undefined) {
        if (collectInvalid) this.invalidRows.push({ row, cells: batch.cells![i]!, message });
        continue;
      }
      const phone = results[i]!;
      this.valid++;
      const first = this.seen.firstRowOrAdd(phone, row);
      if (first !== undefined) {
        this.duplicateRows.push({ row, first_row: first, phone_number: phone });
        if (!this.options.keepDuplicates) continue;
      }
      if (collect) {
        const cells = batch.cells![i]!;
        const name = nameOf(columns, cells);
        const contact: Contact = name === undefined
          ? { row, phone_number: phone, extra: extraOf(columns, cells) }
          : { row, phone_number: phone, name, extra: extraOf(columns, cells) };
        this.contacts.push(contact);
      }
    }
    this.checked += batch.rows.length;
    this.options.onProgress?.({ rows: this.checked });
  }
}

/** Rows named per country in the warning; the count covers them all. */
const MAX_STYLE_ROWS = 10;

/** Rows with control characters named in the warning; the count covers them all. */
const MAX_CONTROL_ROWS = 100;

function isBlank(cells: string[]): boolean {
  for (let i = 0; i < cells.length; i++) if (cells[i]!.trim() !== '') return false;
  return true;
}
