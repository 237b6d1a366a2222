/**
 * --state FILE: the world written as JSON, atomically (a temporary file renamed over
 * the old one, so a crash never leaves half a file), debounced so a running campaign
 * does not rewrite the file on every call, and read back at start.
 */
import { readJsonFile } from '../util/json-file.js';
import type { KeyDef, OrgState, World } from './world.js';
import { stateProblem } from './state-shape.js';
import { writeFileAtomic } from '../util/atomic-file.js';

export interface SavedState {
  version: 1;
  /** Simulated time at the save: the clock resumes from here, so in-flight calls keep their remaining time. */
  saved_at: number;
  seed: number;
  secret: string;
  /** Position of the seeded generator. */
  rng?: [number, number, number, number];
  /** The generated full-scope key, reused on restart when --keys is not given. */
  default_key?: KeyDef;
  orgs: OrgState[];
}

export class StateFileError extends Error {}

export async function loadState(file: string): Promise<SavedState | undefined> {
  const data = await readJsonFile(file, ({ kind, error }) => new StateFileError(kind === 'read'
    ? `cannot read the state file ${file}: ${error.message}`
    : `the state file ${file} is not valid JSON (${error.message}); move it away to start fresh`));
  if (data === undefined) return undefined;
  const s = data as Partial<SavedState>;
  if (!s || typeof s !== 'object' || Array.isArray(s) || !('orgs' in s) || !('version' in s)) {
    throw new StateFileError(`the state file ${file} is not a voicectl sandbox state; move it away to start fresh`);
  }
  const problem = stateProblem(s);
  if (problem) {
    throw new StateFileError(`the state file ${file} cannot be loaded: ${problem}. Fix it, or move it away to start fresh`);
  }
  return s as SavedState;
}

export function snapshot(world: World, defaultKey?: KeyDef): SavedState {
  return {
    version: 1,
    saved_at: world.clock.now(),
    seed: world.seed,
    secret: world.secret,
    rng: world.rngState,
    default_key: defaultKey,
    orgs: [...world.orgs.values()],
  };
}

/** Writes the state after changes settle; the interval grows with the time a write takes. */
export class Persister {
  private dirty = false;
  private timer?: NodeJS.Timeout;
  private writing?: Promise<void>;
  private lastCost = 0;
  private closed = false;

  constructor(
    private readonly file: string,
    private readonly take: () => SavedState,
    private readonly onError: (err: Error) => void,
  ) {}

  markDirty(): void {
    this.dirty = true;
    if (this.timer || this.closed) return;
    const delay = Math.min(5000, Math.max(100, this.lastCost * 5));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush().catch((err: Error) => this.onError(err));
    }, delay);
  }

  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    if (!this.dirty) return;
    this.dirty = false;
    this.writing = this.write().finally(() => {
      this.writing = undefined;
    });
    await this.writing;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private async write(): Promise<void> {
    const started = Date.now();
    const text = JSON.stringify(this.take());
    try {
      // The state holds a full-scope key and webhook secrets: readable by its owner only.
      await writeFileAtomic(this.file, text, { mode: 0o600 });
    } catch (err) {
      this.dirty = true;
      throw err;
    } finally {
      this.lastCost = Date.now() - started;
    }
  }
}
