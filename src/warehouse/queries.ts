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
/** How far a call got with its number: 0 dialed, 1 connected, 2 connected with an outcome. */
const REACHED = `CASE WHEN ${CONNECTED} THEN CASE WHEN outcome IS NULL THEN 1 ELSE 2 END ELSE 0 END`;

export const QUERY_HELP: Record<QueryName, string> = {
  funnel: 'per campaign, then all: calls, numbers dialed, numbers connected, numbers connected with an outcome',
  'by-hour': 'calls, connected and connect rate by hour of the day in the --tz zone',
  'by-agent': 'calls, connected, connect rate and average connected duration per agent',
  'by-outcome': 'calls and share per outcome',
};

export function namedQuery(name: QueryName, zone: string): string {
  switch (name) {
    case 'funnel':
      // The calls and connected calls of a campaign are one cheap pass by campaign. The
      // numbers (dialed, connected, connected with an outcome) need a pass by number, which
      // costs the most with a million numbers, so it is made once, with as few aggregates
      // as it can: the campaign's hash, and how far the number got (0 dialed, 1 connected,
      // 2 connected with an outcome). A number called in one campaign only counts there as
      // it stands, found by the campaign's hash (exact: if two campaigns' hashes were equal,
      // every number would take the path below); the numbers called in several campaigns,
      // usually none, are grouped again per campaign from their own calls. Five aggregates
      // by number, as before, cost about half as much again (docs/performance.md).
      return `WITH campaigns AS MATERIALIZED (
  SELECT campaign_id, hash(campaign_id) AS h, count(*) AS calls, count(*) FILTER (WHERE ${CONNECTED}) AS completed
  FROM calls GROUP BY campaign_id
), numbers AS MATERIALIZED (
  SELECT phone_number,
    CASE WHEN min(hash(campaign_id)) = max(hash(campaign_id)) AND (SELECT count(DISTINCT h) = count(*) FROM campaigns) THEN min(hash(campaign_id)) END AS h,
    max(${REACHED}) AS reached
  FROM calls GROUP BY phone_number
), by_hash AS (
  SELECT h, grouping(h) AS everyone, count(*) AS dialed, count(*) FILTER (WHERE reached > 0) AS connected, count(*) FILTER (WHERE reached = 2) AS with_outcome
  FROM numbers GROUP BY GROUPING SETS ((h), ())
), several AS (
  SELECT campaign_id, max(${REACHED}) AS reached
  FROM calls SEMI JOIN (SELECT phone_number FROM numbers WHERE h IS NULL) s ON calls.phone_number IS NOT DISTINCT FROM s.phone_number
  GROUP BY campaign_id, calls.phone_number
), per_campaign AS (
  SELECT campaign_id, sum(dialed)::BIGINT AS dialed, sum(connected)::BIGINT AS connected, sum(with_outcome)::BIGINT AS with_outcome
  FROM (
    SELECT campaign_id, dialed, connected, with_outcome FROM by_hash JOIN campaigns USING (h) WHERE everyone = 0
    UNION ALL
    SELECT campaign_id, count(*), count(*) FILTER (WHERE reached > 0), count(*) FILTER (WHERE reached = 2)
    FROM several GROUP BY campaign_id
  ) GROUP BY campaign_id
)
SELECT campaign_id, calls, dialed, connected, with_outcome, round(completed / calls, 4) AS connect_rate FROM (
  SELECT 0 AS o, c.campaign_id, c.calls, p.dialed, p.connected, p.with_outcome, c.completed
  FROM campaigns c JOIN per_campaign p ON c.campaign_id IS NOT DISTINCT FROM p.campaign_id
  UNION ALL
  SELECT 1, '(all)', (SELECT sum(calls) FROM campaigns)::BIGINT, dialed, connected, with_outcome, (SELECT sum(completed) FROM campaigns)::BIGINT
  FROM by_hash WHERE everyone = 1
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
