// Paging labels of the back-office. Money and dates are formatted by ui/format.ts.

/** "from-to of total" of a page (spec: /admin/bookings pagination labels). */
export const pageRange = (page: number, limit: number, total: number) => ({
  from: total === 0 ? 0 : (page - 1) * limit + 1,
  to: Math.min(total, page * limit)
})
