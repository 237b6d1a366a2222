/** At most `n` tasks at once; the rest wait their turn in order. */
export type Limiter = <T>(task: () => Promise<T>) => Promise<T>;

export function limiter(n: number): Limiter {
  let active = 0;
  const waiting: Array<() => void> = [];
  const next = () => {
    active--;
    waiting.shift()?.();
  };
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await task();
    } finally {
      next();
    }
  };
}
