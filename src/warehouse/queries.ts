/**
 * The questions teams ask every day, as SQL over `calls` (`voicectl sql --query NAME`).
 * Connected means status `completed`, as `campaign report` counts it; a number is a
 * contact (the funnel counts numbers, as the report's does). Hours are of the reader's
 * zone (--tz), which each row names.
 */
/** SQL text of a string. This module imports nothing: the verb's definition, on the start path, reads it. */
export const sqlString = (s: string): string => `'${s.replace(/'/g, "''")}'`;

export const QUERY_NAMES = ['funnel', 'by-hour', 'by-agent', 'by-outcome'] as const;
export type QueryName = (typeof QUERY_NAMES)[number];

const CONNECTED = `status = 'completed'`;
const RATE = `round(count(*) FILTER (WHERE ${CONNECTED}) / count(*), 4)`;

export const QUERY_HELP: Record<QueryName, string> = {
  funnel: 'per campaign, then all: calls, numbers dialed, numbers connected, numbers connected with an outcome',
  'by-hour': 'calls, connected and connect rate by hour of the day in the --tz zone',
  'by-agent': 'calls, connected, connect rate and average connected duration per agent',
  'by-outcome': 'calls and share per outcome',
};

export function namedQuery(name: QueryName, zone: string): string {
  switch (name) {
    case 'funnel':
      return `SELECT CASE WHEN grouping(campaign_id) = 1 THEN '(all)' ELSE campaign_id END AS campaign_id,
  count(*) AS calls,
  count(DISTINCT phone_number) AS dialed,
  count(DISTINCT phone_number) FILTER (WHERE ${CONNECTED}) AS connected,
  count(DISTINCT phone_number) FILTER (WHERE ${CONNECTED} AND outcome IS NOT NULL) AS with_outcome,
  ${RATE} AS connect_rate
FROM calls
GROUP BY GROUPING SETS ((campaign_id), ())
ORDER BY grouping(campaign_id), calls DESC, campaign_id`;
    case 'by-hour':
      return `SELECT ${sqlString(zone)} AS zone, hour(timezone(${sqlString(zone)}, start_time)) AS hour,
  count(*) AS calls,
  count(*) FILTER (WHERE ${CONNECTED}) AS connected,
  ${RATE} AS connect_rate
FROM calls
WHERE start_time IS NOT NULL
GROUP BY ALL
ORDER BY hour`;
    case 'by-agent':
      return `SELECT agent_id, any_value(agent_name) AS agent_name,
  count(*) AS calls,
  count(*) FILTER (WHERE ${CONNECTED}) AS connected,
  ${RATE} AS connect_rate,
  round(avg(duration_seconds) FILTER (WHERE ${CONNECTED}), 1) AS avg_connected_seconds
FROM calls
GROUP BY agent_id
ORDER BY calls DESC, agent_id`;
    case 'by-outcome':
      return `SELECT outcome,
  count(*) AS calls,
  round(count(*) / sum(count(*)) OVER (), 4) AS share
FROM calls
GROUP BY outcome
ORDER BY calls DESC, outcome NULLS LAST`;
  }
}
