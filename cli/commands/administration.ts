import { Effect } from "effect"
import * as fs from "node:fs"
import { Administration, type ExportRange, type UserRow } from "../../src/modules/administration"
import type { Actor } from "../../src/modules/identity"
import { pagination } from "../../src/platform/paging"
import { majorText } from "../../src/platform/money"
import { CLI_OPERATOR_ID } from "../../src/platform/audit/port"

/**
 * What the users:*, export:* and finance:* commands do, as Effects over the administration service
 * (the commands only parse flags and print), so tests run them against a test server's runtime. The
 * CLI acts as an administrator that is no account (so never "oneself").
 */
export const Operator: Actor = { id: CLI_OPERATOR_ID, role: "ADMIN", preferredLanguage: "en", isEmailVerified: true }

const admin = Effect.map(Administration, (a) => a)

const userSummary = (u: UserRow) => ({
  id: u.id,
  email: u.email,
  name: `${u.firstName} ${u.lastName}`,
  role: u.role,
  isActive: u.isActive,
  /** The account's IANA zone; null while unknown (Europe/Paris is used then). */
  timeZone: u.timeZone,
  paymentAccount: u.paymentAccount?.accountId ?? null,
  createdAt: u.createdAt.toISOString()
})
export type UserSummary = ReturnType<typeof userSummary>

export const listUsers = (options: {
  search?: string | undefined
  role?: string | undefined
  status?: string | undefined
  page?: number | undefined
  limit?: number | undefined
}) =>
  Effect.flatMap(admin, (a) =>
    a.users(Operator, {
      search: options.search,
      role: options.role,
      isActive:
        options.status === undefined
          ? undefined
          : options.status === "active"
            ? "true"
            : options.status === "inactive"
              ? "false"
              : options.status,
      page: options.page === undefined ? undefined : String(options.page),
      limit: options.limit === undefined ? undefined : String(options.limit)
    })
  ).pipe(
    Effect.map((page) => ({
      users: page.rows.map(userSummary),
      pagination: pagination(page.total, page.page, page.limit)
    }))
  )

export const renderUser = (u: UserSummary) =>
  `${u.id}  ${u.role.padEnd(8)} ${(u.isActive ? "active" : "INACTIVE").padEnd(8)} ${u.email}  (${u.name})${u.timeZone ? `  ${u.timeZone}` : ""}${u.paymentAccount ? `  account ${u.paymentAccount}` : ""}`

export const renderUsers = (list: Effect.Effect.Success<ReturnType<typeof listUsers>>) =>
  list.users.length === 0
    ? "No user."
    : [
        ...list.users.map(renderUser),
        `page ${list.pagination.page} of ${Math.max(1, list.pagination.pages)} (${list.pagination.total} users)`
      ].join("\n")

export const changeUser = (id: string, change: { isActive?: boolean; role?: string }) =>
  Effect.flatMap(admin, (a) => a.updateUser(Operator, id, change)).pipe(Effect.map(userSummary))

/** CSV text of bookings or payments (in one currency when given); written to `output` when given (answers the line count then). */
export const exportCsv = (what: "bookings" | "payments", range: ExportRange) =>
  Effect.flatMap(admin, (a) => (what === "bookings" ? a.exportBookings(Operator, range) : a.exportPayments(Operator, range)))

export const writeOrPrint = (text: string, output: string | undefined, log: (line: string) => void) => {
  if (output === undefined) return void process.stdout.write(text)
  fs.writeFileSync(output, text)
  log(`${text.split("\r\n").length - 2} rows written to ${output}`)
}

export const financeStats = (period: string | undefined, currency: string | undefined) =>
  Effect.flatMap(admin, (a) => a.financialStats(Operator, { period, currency }))

const major = (minor: number, currency: string) => `${majorText(minor, currency)} ${currency}`

export const renderStats = (s: Effect.Effect.Success<ReturnType<typeof financeStats>>) =>
  [
    `Period: ${s.period} (${s.from.toISOString()} to ${s.to.toISOString()}), currency ${s.currency}`,
    `Gross revenue:     ${major(s.grossRevenue, s.currency)}`,
    `Refunded:          ${major(s.refundedAmount, s.currency)}`,
    `Kept (gross - refunds): ${major(s.keptRevenue, s.currency)}`,
    `Commissions:       ${major(s.totalCommissions, s.currency)} (margin ${s.commissionMargin} % of kept)`,
    `Net to providers:  ${major(s.netRevenue, s.currency)} (kept - commissions)`,
    `Held on cards now: ${major(s.heldAmount, s.currency)} (${s.payments.pending} authorisations)`,
    `Payments:          ${s.payments.completed} captured, ${s.payments.failed} failed`,
    ...s.revenueByStatus.map((r) => `  ${r.status.padEnd(10)} ${String(r.count).padStart(5)}  ${major(r.amountMinor, s.currency)}`),
    s.currencies.length > 1 ? `Other currencies recorded: ${s.currencies.filter((c) => c !== s.currency).join(", ")} (--currency)` : ""
  ]
    .filter((line) => line !== "")
    .join("\n")

/** The audit log's entries as `audit:list` prints them (JSON: every field; who is the actor's email, or "cli"). */
export const listAudit = (options: {
  action?: string | undefined
  actor?: string | undefined
  subjectType?: string | undefined
  subjectId?: string | undefined
  from?: string | undefined
  to?: string | undefined
  page?: number | undefined
  limit?: number | undefined
}) =>
  Effect.flatMap(admin, (a) =>
    a.auditLog(Operator, {
      ...options,
      page: options.page === undefined ? undefined : String(options.page),
      limit: options.limit === undefined ? undefined : String(options.limit)
    })
  ).pipe(
    Effect.map((page) => ({
      entries: page.rows.map((e) => ({
        id: e.id,
        createdAt: e.createdAt.toISOString(),
        action: e.action,
        actorId: e.actorId,
        actor: e.actor?.email ?? (e.actorId === CLI_OPERATOR_ID ? "cli" : null),
        subjectType: e.subject.type,
        subjectId: e.subject.id,
        before: e.before,
        after: e.after
      })),
      pagination: pagination(page.total, page.page, page.limit)
    }))
  )

export const renderAudit = (list: Effect.Effect.Success<ReturnType<typeof listAudit>>) =>
  list.entries.length === 0
    ? "No entry."
    : [
        ...list.entries.map(
          (e) =>
            `${e.createdAt}  ${e.action.padEnd(24)} ${e.subjectType.padEnd(11)} ${e.subjectId}  by ${e.actor ?? e.actorId}  ${JSON.stringify(e.before)} → ${JSON.stringify(e.after)}`
        ),
        `page ${list.pagination.page} of ${Math.max(1, list.pagination.pages)} (${list.pagination.total} entries)`
      ].join("\n")
