// A small in-memory cache for read calls (spec section 9: service list 5 min, categories 10 min).
// Failures are never kept, and every write to services drops the cached service reads, so a
// provider sees their own change at once.

interface Entry {
  readonly at: number
  readonly value: Promise<unknown>
}

const entries = new Map<string, Entry>()

export const MINUTE = 60_000

/**
 * The answer of `load` for `key`, reused while younger than `ttlMs`. `fresh` loads anew (a periodic
 * refresh) and keeps that answer for the next readers.
 */
export const cached = <T>(key: string, ttlMs: number, load: () => Promise<T>, fresh = false): Promise<T> => {
  const hit = entries.get(key)
  if (!fresh && hit && Date.now() - hit.at < ttlMs) return hit.value as Promise<T>
  const value = load()
  const entry = { at: Date.now(), value }
  entries.set(key, entry)
  value.catch(() => {
    if (entries.get(key) === entry) entries.delete(key)
  })
  return value
}

/** Drops every entry whose key starts with `prefix`. */
export const invalidate = (prefix: string) => {
  for (const key of [...entries.keys()]) if (key.startsWith(prefix)) entries.delete(key)
}
