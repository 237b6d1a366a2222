/**
 * An independent reader of the Parquet folders `call export --format parquet` writes:
 * DuckDB's read_parquet, the engine analysts use, not the library that wrote the files.
 */
import { DuckDBInstance } from '@duckdb/node-api';

export interface ReadBack {
  /** Each row as DuckDB gives it to JavaScript: timestamps as Date, integers as number or bigint. */
  rows: Array<Record<string, unknown>>;
  /** Column name → DuckDB type (`TIMESTAMP WITH TIME ZONE`, `INTEGER`, `VARCHAR`, …). */
  types: Record<string, string>;
  /** The files read, relative to the folder. */
  files: string[];
}

export async function readFolder(dir: string, sql = 'SELECT * FROM t'): Promise<ReadBack> {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  try {
    const glob = `${dir}/*/*.parquet`.replace(/'/g, "''");
    await c.run(`CREATE VIEW t AS SELECT * FROM read_parquet('${glob}', hive_partitioning = true, union_by_name = true, filename = true)`);
    const described = (await c.runAndReadAll('DESCRIBE SELECT * FROM t')).getRowObjectsJS();
    const types = Object.fromEntries(described.map((d) => [String(d.column_name), String(d.column_type)]));
    const rows = (await c.runAndReadAll(sql)).getRowObjectsJS() as Array<Record<string, unknown>>;
    const files = [...new Set(rows.map((r) => String(r.filename).slice(dir.length + 1)))].sort();
    return { rows, types, files };
  } finally {
    c.closeSync();
  }
}

/** The key-value metadata of one file. */
export async function fileMetadata(file: string): Promise<Record<string, string>> {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  try {
    const rows = (await c.runAndReadAll(`SELECT key::VARCHAR AS k, value::VARCHAR AS v FROM parquet_kv_metadata('${file.replace(/'/g, "''")}')`)).getRowObjectsJS();
    return Object.fromEntries(rows.map((r) => [String(r.k), String(r.v)]));
  } finally {
    c.closeSync();
  }
}
