// CSV (RFC 4180) for every export: the back-office's bookings and payments, the providers' earnings.
// Pure (imports nothing).

/** Text that a spreadsheet would read as a formula (`=HYPERLINK(...)`, `+`, `-`, `@`, or after a tab or CR). */
const formulaStart = /^[=+\-@\t\r]/

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break; quotes doubled.
 * Text that starts like a formula gets a leading `'`, so that a spreadsheet shows it instead of
 * running it (a service title is anyone's text); numbers are ours and stay as they are.
 */
export const csvField = (value: string | number | boolean | null | undefined) => {
  const raw = value === null || value === undefined ? "" : String(value)
  const text = typeof value === "string" && formulaStart.test(raw) ? `'${raw}` : raw
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** A whole document: the header row, then the rows, each line ended by CRLF. */
export const csv = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string | number | boolean | null | undefined>>) =>
  [header, ...rows].map((row) => row.map(csvField).join(",")).join("\r\n") + "\r\n"
