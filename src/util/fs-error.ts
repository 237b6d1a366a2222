/** A file-system error in words a person can act on, with its code for searching: "no space left on the device (ENOSPC)". */
export function fsErrorReason(err: unknown): string {
  const e = err as NodeJS.ErrnoException | undefined;
  const code = typeof e?.code === 'string' ? e.code : undefined;
  const words = code ? REASONS[code] : undefined;
  if (words) return `${words} (${code})`;
  const message = e instanceof Error ? e.message : String(err);
  return code && !message.includes(code) ? `${message} (${code})` : message;
}

/** Whether `err` came from the file system (it has an errno code and a syscall). */
export function isFsError(err: unknown): err is NodeJS.ErrnoException {
  const e = err as NodeJS.ErrnoException | undefined;
  return e instanceof Error && typeof e.code === 'string' && typeof e.syscall === 'string';
}

const REASONS: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EFBIG: 'the file is larger than this system allows',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOENT: 'no such file or folder',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EISDIR: 'it is a folder',
  EEXIST: 'it already exists',
  EIO: 'an input/output error on the device',
  EMFILE: 'too many open files',
  ENAMETOOLONG: 'the name is too long',
};
