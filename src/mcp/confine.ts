/**
 * The paths a tool is given stay in the folder the server was started in. What a model
 * asks for may come from a transcript (words spoken by strangers), so `../../.env`,
 * `/etc/passwd`, or a link inside the folder that leads out are refused before any
 * command runs, as are hidden names (`.env`, `.git/`, `.ssh/`: secrets, not contacts
 * or documents). The command is handed the real path, relative to the folder, with no
 * link left in it.
 */
import { sep } from 'node:path';
import { realPathInside, RefusedFile } from '../gitops/files.js';
import { ToolFailure, type ToolSpec } from './tool-spec.js';

const WHERE = 'voicectl mcp reads only files inside the folder it was started in, and no hidden ones (docs/safety.md, "MCP")';

/** `args` with every path argument of `tool` replaced by its confined form; a ToolFailure (exit 2) for the first that is refused. */
export async function confinePaths(root: string, tool: Pick<ToolSpec, 'paths'>, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (!tool.paths || tool.paths.length === 0 || !args || typeof args !== 'object') return args;
  const out: Record<string, unknown> = { ...args };
  for (const key of tool.paths) {
    const value = args[key];
    if (value === undefined || value === null) continue;
    out[key] = Array.isArray(value) ? await Promise.all(value.map((v) => confine(root, key, String(v)))) : await confine(root, key, String(value));
  }
  return out;
}

function hidden(path: string): boolean {
  return path.split(/[/\\]/).some((part) => part.startsWith('.') && part !== '.' && part !== '..');
}

/** `why` names the path itself. */
function refused(key: string, why: string): ToolFailure {
  return new ToolFailure(`error: ${key}: ${why}.\n${WHERE}.\n(exit code 2)`, 2);
}

async function confine(root: string, key: string, raw: string): Promise<string> {
  const shown = JSON.stringify(raw);
  if (hidden(raw)) throw refused(key, `${shown} is a hidden file or folder (a name starting with a dot), which is not read`);
  let real: string;
  try {
    real = await realPathInside(root, raw);
  } catch (err) {
    if (err instanceof RefusedFile) throw refused(key, err.message);
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw refused(key, `${shown}: no such file or folder in the folder the server runs in`);
    if (code === 'ELOOP') throw refused(key, `${shown}: a loop of symbolic links`);
    if (code === 'EACCES') throw refused(key, `${shown}: permission denied`);
    throw refused(key, `${shown}: ${(err as Error).message}`);
  }
  if (hidden(real)) throw refused(key, `${shown} is ${real.split(sep).join('/')}, a hidden file or folder, which is not read`);
  // "-" would be read as standard input by some commands.
  return real === '-' ? `.${sep}-` : real;
}
