/**
 * Which scope an endpoint needs (spec section 5), so a 403 can name it. Endpoints the
 * spec assigns no scope get the closest one by meaning.
 */
export function scopeFor(method: string, path: string): string | undefined {
  const p = path.split('?')[0]!;
  const write = method !== 'GET';
  if (p.startsWith('/agents')) return write ? 'agents:write' : 'agents:read';
  if (p.startsWith('/kb')) return write ? 'agents:write' : 'agents:read';
  if (/^\/campaigns\/[^/]+\/launch$/.test(p)) return 'calls:dispatch';
  if (p.startsWith('/campaigns')) return write ? 'calls:write' : 'calls:read';
  if (p.startsWith('/calls')) return 'calls:read';
  if (p.startsWith('/webhooks')) return 'webhooks:manage';
  return undefined;
}
