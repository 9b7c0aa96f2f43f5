/** The one way lists are paged: a page from 1 and a size between 1 and 100, clamped rather than refused. */
export const MAX_PAGE_SIZE = 100
/** Pages past this one are empty anyway; the cap keeps offsets within what SQL accepts (?page=1e40). */
export const MAX_PAGE = 1_000_000

export const paging = (page: number | undefined, limit: number | undefined, defaultLimit: number) => {
  const size = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.trunc(Number.isFinite(limit) ? limit! : defaultLimit)))
  const number = Math.min(MAX_PAGE, Math.max(1, Math.trunc(Number.isFinite(page) ? page! : 1)))
  return { page: number, limit: size, offset: (number - 1) * size }
}

/** The Pagination shape of platform/http/envelope.ts. */
export const pagination = (total: number, page: number, limit: number) => ({ total, page, limit, pages: Math.ceil(total / limit) })

/** A query-string number, undefined when absent or not a number. */
export const numberParam = (value: string | undefined) => {
  if (value === undefined || value.trim() === "") return undefined
  const n = Number(value)
  return Number.isFinite(n) ? n : undefined
}
