/**
 * The tools `voicectl mcp` serves, declared once: name, schemas, annotations, and the
 * command line each one runs. A read tool answers what `voicectl … --json` prints for the
 * same request; write tools exist only under --allow-write, the launch only under
 * --allow-launch, and nothing deletes.
 */
import type { ToolSpec } from './tool-spec.js';
import { READ_TOOLS } from './tools-read.js';
import { WRITE_TOOLS } from './tools-write.js';

export const TOOLS: readonly ToolSpec[] = [...READ_TOOLS, ...WRITE_TOOLS];

/** The tools a server started with these flags offers. */
export function toolsFor(options: { allowWrite?: boolean; allowLaunch?: boolean }): ToolSpec[] {
  return TOOLS.filter((t) => t.kind === 'read' || (t.kind === 'write' && options.allowWrite) || (t.kind === 'spend' && options.allowLaunch));
}
