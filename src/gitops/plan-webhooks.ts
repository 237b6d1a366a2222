/** The webhook endpoints of a plan: each endpoint of the files against the lock and the account. */
import type { WebhookEndpoint } from '../api/webhooks.js';
import { EVENT_TYPES } from '../webhooks/signature.js';
import type { Account } from './account.js';
import type { Lock, LockedWebhook } from './lock.js';
import { sameSet, sameValue, type Desired, type DesiredWebhook } from './model.js';
import type { FieldChange, PlanOptions, Step } from './steps.js';

function isAllEvents(events: unknown): boolean {
  return !Array.isArray(events) || events.length === 0 || EVENT_TYPES.every((t) => events.includes(t));
}

function webhookChanges(hook: DesiredWebhook, current: { url?: unknown; events?: unknown; enabled?: unknown }): { changes: FieldChange[]; body: Record<string, unknown> } {
  const changes: FieldChange[] = [];
  const body: Record<string, unknown> = {};
  if (current.url !== hook.url) {
    changes.push({ field: 'url', old: current.url, new: hook.url });
    body.url = hook.url;
  }
  const same = hook.events === undefined ? isAllEvents(current.events) : Array.isArray(current.events) && sameSet(hook.events, current.events as string[]);
  if (!same) {
    // PATCH cannot "leave out" events to mean all of them: the whole list says it.
    const events = hook.events ?? [...EVENT_TYPES];
    changes.push({ field: 'events', old: current.events ?? 'all', new: hook.events ?? 'all' });
    body.events = events;
  }
  if (hook.enabled !== undefined && current.enabled !== hook.enabled) {
    changes.push({ field: 'enabled', old: current.enabled, new: hook.enabled });
    body.enabled = hook.enabled;
  }
  return { changes, body };
}

export function planWebhooks(desired: Desired, lock: Lock, account: Account, options: PlanOptions, steps: Step[], notes: string[], errors: string[]): void {
  const listed = account.webhooks;
  const byId = new Map((listed ?? []).map((e) => [String(e.id), e]));
  const managedIds = new Set(Object.values(lock.webhooks).map((w) => w.id).filter(Boolean));
  if (!listed && (desired.webhooks.size > 0 || Object.keys(lock.webhooks).length > 0)) {
    notes.push('This service does not list webhook endpoints: they are compared with what voicectl last applied, so changes made elsewhere do not show.');
  }
  for (const hook of desired.webhooks.values()) {
    const locked = lock.webhooks[hook.handle];
    if (!listed) {
      if (locked?.id) {
        const { changes, body } = webhookChanges(hook, locked);
        if (changes.length) steps.push({ kind: 'update-webhook', handle: hook.handle, id: locked.id, changes, body, hook });
      } else {
        // This service cannot list endpoints: an unanswered create can never be found.
        steps.push({ kind: 'create-webhook', handle: hook.handle, hook, resend: locked?.pending === 'create' || undefined });
      }
      continue;
    }
    const server = locked?.id ? byId.get(locked.id) : undefined;
    if (server) {
      pushWebhookUpdate(steps, hook, server, false, locked);
      continue;
    }
    const candidates = (listed ?? []).filter((e) => e.url === hook.url && !managedIds.has(String(e.id)));
    if (candidates.length && (locked?.pending || options.adopt)) {
      if (candidates.length > 1) errors.push(`webhooks.${hook.handle}: ${candidates.length} endpoints have the URL ${hook.url} (${candidates.map((c) => c.id).join(', ')}); delete all but one, then apply again`);
      else pushWebhookUpdate(steps, hook, candidates[0]!, true, locked);
    } else if (candidates.length) {
      errors.push(`webhooks.${hook.handle}: the account already has an endpoint for ${hook.url} (id ${candidates.map((c) => c.id).join(', ')}) that these files do not manage; pass --adopt to take it over`);
    } else {
      steps.push({ kind: 'create-webhook', handle: hook.handle, hook, resend: locked?.pending === 'create' || undefined });
    }
  }
}

function pushWebhookUpdate(steps: Step[], hook: DesiredWebhook, server: WebhookEndpoint, adopt: boolean, locked: LockedWebhook | undefined): void {
  const id = String(server.id);
  const { changes, body } = webhookChanges(hook, server);
  if (changes.length) steps.push({ kind: 'update-webhook', handle: hook.handle, id, changes, body, hook, adopt });
  else if (adopt || locked?.id !== id || locked.url !== hook.url || !sameValue(locked.events ?? null, hook.events ?? null)) {
    steps.push({ kind: 'record-webhook', handle: hook.handle, id, hook });
  }
}
