/**
 * The one guard for a JSON object (what a service, a config file or a YAML document holds
 * as `{ ... }`): an object that is neither null nor an array.
 */
export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
