// Money and dates of the back-office, through Intl (spec section 9: minor units shown in their currency).

/** Digits after the decimal point of a currency (0 for JPY, XOF, XAF), as Intl knows it. */
export const fractionDigits = (currency: string) => {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2
  } catch {
    return 2
  }
}

/** An amount in minor units, in its currency and the UI language ("80,00 CHF", "CA$35.00"). */
export const formatMinor = (locale: string, minor: number, currency: string) => {
  const amount = minor / 10 ** fractionDigits(currency)
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency }).format(amount)
  } catch {
    return `${amount} ${currency}`
  }
}

export const formatDateTime = (locale: string, value: string) =>
  new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(new Date(value))

export const formatTime = (locale: string, value: string) => new Intl.DateTimeFormat(locale, { timeStyle: "short" }).format(new Date(value))

/** "from-to of total" of a page (spec: /admin/bookings pagination labels). */
export const pageRange = (page: number, limit: number, total: number) => ({
  from: total === 0 ? 0 : (page - 1) * limit + 1,
  to: Math.min(total, page * limit)
})
