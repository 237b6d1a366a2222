import type { EventEmitter } from 'node:events';

/**
 * Resolves with the first of `names` the emitter emits, and its arguments, and stops
 * listening to all of them then. An 'error' among the names is an answer, not a rejection:
 * the caller decides what it means.
 */
export function firstEvent(emitter: EventEmitter, names: string[]): Promise<{ name: string; args: unknown[] }> {
  return new Promise((resolve) => {
    const listeners = names.map((name) => {
      const listener = (...args: unknown[]) => {
        for (const [n, l] of listeners) emitter.off(n, l);
        resolve({ name, args });
      };
      return [name, listener] as const;
    });
    for (const [n, l] of listeners) emitter.on(n, l);
  });
}
