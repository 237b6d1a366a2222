import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './paths.js';

declare const __VOICECTL_VERSION__: string | undefined;

/** Set by the build; read from package.json when running from source (tests). */
export function version(): string {
  if (typeof __VOICECTL_VERSION__ === 'string') return __VOICECTL_VERSION__;
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
