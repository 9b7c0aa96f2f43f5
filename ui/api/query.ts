/** A query string ("?a=1&b=x") of the defined, non-empty values; "" when there are none. */
export const queryString = (params: object): string => {
  const query = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === "") continue
    query.set(key, String(value))
  }
  const text = query.toString()
  return text === "" ? "" : `?${text}`
}
