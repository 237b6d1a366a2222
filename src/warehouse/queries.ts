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
      // Each number once per campaign first (one pass over the calls), then the campaigns and
      // all numbers from that: three count(DISTINCT …) over the calls cost more.
      return `WITH numbers AS (
  SELECT campaign_id, phone_number, count(*) AS calls,
    count(*) FILTER (WHERE ${CONNECTED}) AS completed,
    bool_or(${CONNECTED} AND outcome IS NOT NULL) AS with_outcome
  FROM calls GROUP BY campaign_id, phone_number
), per_campaign AS (
  SELECT campaign_id, sum(calls)::BIGINT AS calls, count(*) AS dialed, count(*) FILTER (WHERE completed > 0) AS connected,
    count(*) FILTER (WHERE with_outcome) AS with_outcome, sum(completed)::BIGINT AS completed
  FROM numbers GROUP BY campaign_id
), everyone AS (
  SELECT count(*) AS dialed, count(*) FILTER (WHERE completed > 0) AS connected, count(*) FILTER (WHERE with_outcome) AS with_outcome
  FROM (SELECT phone_number, sum(completed) AS completed, bool_or(with_outcome) AS with_outcome FROM numbers GROUP BY phone_number)
)
SELECT campaign_id, calls, dialed, connected, with_outcome, round(completed / calls, 4) AS connect_rate FROM (
  SELECT 0 AS o, * FROM per_campaign
  UNION ALL
  SELECT 1, '(all)', (SELECT sum(calls)::BIGINT FROM per_campaign), dialed, connected, with_outcome, (SELECT sum(completed)::BIGINT FROM per_campaign) FROM everyone
)
ORDER BY o, calls DESC, campaign_id`;
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
