/**
 * SQL over a folder of call exports (`voicectl sql`): DuckDB, embedded, reads the folder's
 * Parquet files as one table `calls` (with the `date` column of the partition). DuckDB is
 * an optional dependency, a native module: it is imported here, by the verbs that need it,
 * when they run, and a missing or broken install is said once with the command that fixes
 * it (exit 2), never as a stack trace.
 */
import { stat } from 'node:fs/promises';
import { FailureError, UsageError } from '../errors.js';
import { folderFiles } from '../export/folder.js';
import { sqlString } from './queries.js';

export const ENGINE_PACKAGE = '@duckdb/node-api';

type DuckDb = typeof import('@duckdb/node-api');

/** How to install the engine, for voicectl installed globally (as the README does) and inside a project. */
export const INSTALL_HINT = `Install it with: npm install --global ${ENGINE_PACKAGE} (or npm install ${ENGINE_PACKAGE} where voicectl is a project's dependency). It is an optional dependency of voicectl, left out by npm install --omit=optional and on platforms DuckDB has no build for.`;

async function loadEngine(): Promise<DuckDb> {
  try {
    // A literal specifier: the build routes import() of an external package through the start path's loader.
    return await import('@duckdb/node-api');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const missing = code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
    const why = missing ? 'is not installed' : `could not be loaded (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`;
    throw new UsageError(`voicectl sql needs DuckDB (${ENGINE_PACKAGE}), which ${why}.`, { hint: INSTALL_HINT, cause: err });
  }
}

export interface ResultColumn {
  name: string;
  /** DuckDB's name of the type: VARCHAR, BIGINT, TIMESTAMP WITH TIME ZONE, … */
  type: string;
  /** A point in time: written as ISO 8601 in UTC with Z, shown in the reader's zone. */
  instant: boolean;
}

export interface QueryResult {
  columns: ResultColumn[];
  /** One object a row, values ready for JSON: numbers, strings, booleans, null, arrays and objects of them. */
  rows: Array<Record<string, unknown>>;
}

export interface Warehouse {
  query(sql: string): Promise<QueryResult>;
  close(): void;
}

/**
 * Opens the folder: DuckDB in memory, and a view `calls` over every `date=…/*.parquet`
 * file (union by name, so files with and without the transcript column read as one).
 */
export async function openWarehouse(dir: string): Promise<Warehouse> {
  const kind = await stat(dir).then((s) => (s.isDirectory() ? 'folder' : 'file'), (err: NodeJS.ErrnoException) => (err.code === 'ENOENT' || err.code === 'ENOTDIR' ? 'missing' : 'folder'));
  if (kind !== 'folder') {
    throw new UsageError(kind === 'missing' ? `${dir} does not exist.` : `${dir} is a file: --dir takes the folder of an export.`, {
      hint: `Pass the folder that voicectl call export --format parquet --out DIR wrote (it holds date=YYYY-MM-DD/ folders).`,
    });
  }
  const files = await folderFiles(dir);
  if (files.length === 0) {
    throw new UsageError(`${dir} holds no exported calls (no date=YYYY-MM-DD/*.parquet files).`, {
      hint: `Export some first: voicectl call export --format parquet --out ${dir}`,
    });
  }
  const duckdb = await loadEngine();
  const instance = await duckdb.DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const glob = `${dir.replace(/\/+$/, '')}/date=*/*.parquet`;
  try {
    // A query that reads `calls` more than once (the funnel reads it three times) reads each
    // file's footer once: 20 to 33 ms less for the funnel over 62 files (docs/performance.md).
    // The footers kept are this process's, for the one query `voicectl sql` runs, and an
    // export never rewrites a file in place (it renames a whole new one in).
    await connection.run('SET parquet_metadata_cache = true');
    await connection.run(`CREATE VIEW calls AS SELECT * FROM read_parquet(${sqlString(glob)}, hive_partitioning = true, union_by_name = true, hive_types = {'date': DATE})`);
  } catch (err) {
    connection.closeSync();
    throw new FailureError(`cannot read the Parquet files in ${dir}: ${firstLine(err)}`, { cause: err });
  }
  return {
    async query(sql: string): Promise<QueryResult> {
      let reader;
      try {
        reader = await connection.runAndReadAll(sql);
      } catch (err) {
        // The engine's message names the problem, what it could have meant (Candidate bindings: …)
        // and where, the query's line with a caret under the spot: kept whole, without blank lines.
        throw new UsageError(`the query failed: ${engineMessage(err)}`, { hint: `The table is calls; voicectl sql "DESCRIBE calls" --dir ${dir} lists its columns (docs/export.md says what each holds).`, cause: err });
      }
      const names = reader.columnNames();
      const types = reader.columnTypes().map((t) => t.toString());
      const js = reader.getRowsJS();
      const json = reader.getRowsJson();
      const columns = names.map((name, i) => ({ name, type: types[i]!, instant: types[i] === 'TIMESTAMP WITH TIME ZONE' }));
      const rows = js.map((row, r) => {
        const out: Record<string, unknown> = {};
        columns.forEach((c, i) => {
          out[c.name] = plain(row[i], json[r]![i], c.type);
        });
        return out;
      });
      return { columns, rows };
    },
    close() {
      connection.closeSync();
    },
  };
}

/** A value for JSON: instants as ISO 8601 with Z, 64-bit integers as numbers (text beyond 2⁵³), the rest as DuckDB's JSON form. */
function plain(value: unknown, json: unknown, type: string): unknown {
  if (value === null || value === undefined) return null;
  if (type === 'TIMESTAMP WITH TIME ZONE' && value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  return json;
}

function engineMessage(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n').filter((l) => l.trim() !== '').join('\n').trimEnd();
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0]!.trim();
}
