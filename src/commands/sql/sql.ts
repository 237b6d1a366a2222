import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { Column } from '../../io/output.js';
import { printList } from '../../io/output.js';
import { withSpinner } from '../../io/progress.js';
import { isoInZone } from '../../util/time.js';
import { openWarehouse } from '../../warehouse/engine.js';
import { namedQuery } from '../../warehouse/queries.js';
import type { SqlFlags } from './definition.js';

type Row = Record<string, unknown>;

export default async function sql(ctx: Context, query: string | undefined, flags: SqlFlags): Promise<void> {
  const dir = flags.dir ?? 'calls/';
  if (query !== undefined && flags.query) {
    throw new UsageError('Give either SQL or --query NAME, not both.', { hint: `For example: voicectl sql --query ${flags.query} --dir ${dir}` });
  }
  if (!flags.dir) {
    throw new UsageError('sql needs --dir DIR: the folder that call export --format parquet --out DIR wrote.', {
      hint: `For example: voicectl call export --format parquet --out calls/, then voicectl sql ${flags.query ? `--query ${flags.query}` : '"SELECT count(*) FROM calls"'} --dir calls/`,
    });
  }
  const text = flags.query ? namedQuery(flags.query, ctx.timeZone) : query;
  if (!text || text.trim() === '') {
    throw new UsageError('What should sql ask? Give SQL or --query NAME.', {
      hint: `For example: voicectl sql "SELECT count(*) FROM calls" --dir ${dir}, or voicectl sql --query funnel --dir ${dir}`,
    });
  }
  const warehouse = await openWarehouse(flags.dir);
  try {
    const result = await withSpinner(ctx, 'Querying', () => warehouse.query(text));
    const zone = ctx.timeZone;
    // A table shows instants in the reader's zone, which the header names; JSON and CSV keep UTC ISO 8601.
    const columns: Column<Row>[] = result.columns.map((c) => (c.instant
      ? { header: `${c.name} (${zone})`, get: (r: Row) => isoInZone(r[c.name], zone), csv: { name: c.name, get: (r: Row) => r[c.name] } }
      : { header: c.name, key: c.name, csv: c.name }));
    await printList(ctx, result.rows, columns, { empty: 'The query returned no rows.' });
  } finally {
    warehouse.close();
  }
}
