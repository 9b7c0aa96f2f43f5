/** The one way lists are paged: a page from 1 and a size between 1 and 100, clamped rather than refused. */
export const MAX_PAGE_SIZE = 100
/** Pages past this one are empty anyway; the cap keeps offsets within what SQL accepts (?page=1e40). */
export const MAX_PAGE = 1_000_000

export const paging = (page: number | undefined, limit: number | undefined, defaultLimit: number) => {
  const size = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.trunc(Number.isFinite(limit) ? limit! : defaultLimit)))
  const number = Math.min(MAX_PAGE, Math.max(1, Math.trunc(Number.isFinite(page) ? page! : 1)))
  return { page: number, limit: size, offset: (number - 1) * size }
}

/**
 * A list query's page and size as sent (query-string text, or numbers from the CLI), read with the
 * list's own default size: the one reading of every list's `page` and `limit`.
 */
export const pageOf = (
  query: { readonly page?: string | number | undefined; readonly limit?: string | number | undefined },
  defaultLimit: number
) => paging(asNumber(query.page), asNumber(query.limit), defaultLimit)

const asNumber = (value: string | number | undefined) => (typeof value === "number" ? value : numberParam(value))

/** The answer's `{ total, page, limit, pages }` (the `Pagination` schema of platform/http/schemas.ts). */
export const pagination = (total: number, page: number, limit: number) => ({ total, page, limit, pages: Math.ceil(total / limit) })

/** A query-string number, undefined when absent or not a number. */
export const numberParam = (value: string | undefined) => {
  if (value === undefined || value.trim() === "") return undefined
  const n = Number(value)
  return Number.isFinite(n) ? n : undefined
}
