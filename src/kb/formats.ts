import { bytes } from '../text/text.js';

/** What the service accepts (spec section 4, Knowledge base rules, and section 8). */

const ACCEPTED_EXTENSIONS = ['pdf', 'docx', 'xlsx', 'xls', 'csv', 'txt', 'md', 'rst'] as const;

export const ACCEPTED_LIST = ACCEPTED_EXTENSIONS.map((e) => e.toUpperCase()).join(', ');

/** 50 MB, counted as the sandbox and most services do: 50 × 1024 × 1024 bytes. */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** Why a file cannot be uploaded, or undefined when it can. */
export function rejectionOf(name: string, size: number): string | undefined {
  const ext = extensionOf(name);
  if (!(ACCEPTED_EXTENSIONS as readonly string[]).includes(ext)) {
    return `${ext ? `.${ext} files are not accepted` : 'no file extension'} (accepted: ${ACCEPTED_LIST})`;
  }
  if (size > MAX_UPLOAD_BYTES) return `${bytes(size)} is over the 50 MB upload limit`;
  return undefined;
}
