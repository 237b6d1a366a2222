/** `voicectl sql`, declared once (src/commands/spec.ts; see agent/definition.ts). @internal */
import { Argument, Option, type Command } from '@commander-js/extra-typings';
import { type FlagsOf } from '../shared.js';
import { verb } from '../spec.js';
import { QUERY_HELP, QUERY_NAMES } from '../../warehouse/queries.js';

/** @internal */
export type SqlFlags = FlagsOf<typeof sqlOptions>;

/** @internal */
export const sql = verb({
  name: 'sql', summary: 'Ask SQL questions of a folder of Parquet call exports (DuckDB, embedded)', options: sqlOptions, action: () => import('./sql.js'),
  description: `Run SQL over a folder written by \`call export --format parquet --out DIR\`, with DuckDB
embedded: the table \`calls\` has a row per call, its columns as docs/export.md lists them,
and \`date\`, the UTC start day of the file's partition. Nothing is sent to the service.`,
  arguments: [new Argument('[query]', 'the SQL, for example "SELECT status, count(*) FROM calls GROUP BY status"')],
  help: [`Named queries (--query NAME), instead of SQL:
${QUERY_NAMES.map((n) => `  ${n.padEnd(11)}${QUERY_HELP[n]}`).join('\n')}
Connected means status completed. Prints a table, --json (an array of row objects) or
-o csv; times are ISO 8601 in UTC in JSON and CSV, in the --tz zone (named) in a table.
DuckDB (@duckdb/node-api) is an optional dependency; without it, sql exits 2 and says how
to install it.`],
  examples: [
    { command: 'voicectl call export --campaign CAMPAIGN_ID --format parquet --out warehouse/' },
    { command: 'voicectl sql --query funnel --dir warehouse/' },
    { command: 'voicectl sql "SELECT date, count(*) AS calls FROM calls GROUP BY date ORDER BY date" --dir warehouse/ -o csv' },
  ],
});

/** @internal */
export function sqlOptions(cmd: Command) {
  return cmd
    .option('--dir <dir>', 'the folder of Parquet files (DIR/date=YYYY-MM-DD/*.parquet); required')
    .addOption(new Option('--query <name>', 'a named query instead of SQL').choices(QUERY_NAMES));
}
