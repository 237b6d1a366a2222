/**
 * The funnel query (src/warehouse/queries.ts) against the plainest SQL that says what it
 * means (count(DISTINCT …) per campaign and over all), on tables made to have what the
 * quick path must get right: numbers called in several campaigns, calls without a
 * campaign, calls without a status or an outcome.
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namedQuery } from '../../src/warehouse/queries.js';

const FIGURES = `count(*) AS calls,
  count(DISTINCT coalesce(phone_number, '')) AS dialed,
  count(DISTINCT coalesce(phone_number, '')) FILTER (WHERE status = 'completed') AS connected,
  count(DISTINCT coalesce(phone_number, '')) FILTER (WHERE status = 'completed' AND outcome IS NOT NULL) AS with_outcome,
  round(count(*) FILTER (WHERE status = 'completed') / count(*), 4) AS connect_rate`;
const REFERENCE = `SELECT campaign_id, ${FIGURES} FROM calls GROUP BY campaign_id
UNION ALL SELECT '(all)', ${FIGURES} FROM calls`;

let connection: DuckDBConnection;
let instance: DuckDBInstance;
beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:');
  connection = await instance.connect();
});
afterAll(() => {
  connection?.closeSync();
  instance?.closeSync();
});

const key = (r: Record<string, unknown>) => String(r.campaign_id ?? '\u0000');
async function rows(sql: string): Promise<Array<Record<string, unknown>>> {
  return ((await connection.runAndReadAll(sql)).getRowObjectsJson() as Array<Record<string, unknown>>)
    .map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && /^\d+(?:\.\d+)?$/.test(v) && k !== 'campaign_id' ? Number(v) : v])))
    .sort((a, b) => key(a).localeCompare(key(b)));
}

describe('the funnel query', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])('counts as count(DISTINCT …) does (table %i)', async (seed) => {
    await connection.run(`SELECT setseed(${seed / 10})`);
    // Few numbers and four campaigns: most numbers are called in several campaigns.
    await connection.run(`CREATE OR REPLACE TABLE calls AS SELECT
      CASE WHEN random() < 0.1 THEN NULL ELSE 'cmp_' || (floor(random() * 4))::VARCHAR END AS campaign_id,
      CASE WHEN random() < 0.02 THEN NULL ELSE '+9198' || lpad((floor(random() * ${40 * seed}))::VARCHAR, 8, '0') END AS phone_number,
      CASE WHEN random() < 0.5 THEN 'completed' WHEN random() < 0.5 THEN 'no_answer' ELSE NULL END AS status,
      CASE WHEN random() < 0.5 THEN NULL ELSE 'interested' END AS outcome
      FROM range(${150 * seed})`);
    const mine = await rows(namedQuery('funnel', 'UTC'));
    expect(mine.length).toBeGreaterThan(2);
    expect(mine).toEqual(await rows(REFERENCE));
  });

  it('counts a number called in one campaign only there, and every number once over all', async () => {
    await connection.run(`CREATE OR REPLACE TABLE calls AS SELECT * FROM (VALUES
      ('a', '+911', 'completed', 'interested'), ('a', '+912', 'no_answer', NULL),
      ('b', '+912', 'completed', NULL), ('b', '+913', 'completed', 'interested')
    ) t(campaign_id, phone_number, status, outcome)`);
    expect(await rows(namedQuery('funnel', 'UTC'))).toEqual([
      { campaign_id: '(all)', calls: 4, dialed: 3, connected: 3, with_outcome: 2, connect_rate: 0.75 },
      { campaign_id: 'a', calls: 2, dialed: 2, connected: 1, with_outcome: 1, connect_rate: 0.5 },
      { campaign_id: 'b', calls: 2, dialed: 2, connected: 2, with_outcome: 1, connect_rate: 1 },
    ]);
  });
});
