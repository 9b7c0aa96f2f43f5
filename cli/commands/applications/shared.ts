import { Effect } from "effect"
import { now } from "../../../src/platform/clock"
import { pageOf, pagination } from "../../../src/platform/paging"
import { type AdminApplicationDetail, Operator, ProviderApplications, toApplicationRowView } from "../../../src/modules/onboarding"

/**
 * What the applications:* commands do, as Effects over the application's services (the commands
 * only parse flags and print): tests run these against a test server's own runtime.
 */
/** Applications per page when the command names no size (as the HTTP list). */
const APPLICATIONS_PAGE_SIZE = 20

const summary = (detail: AdminApplicationDetail) => ({
  id: detail.application.id,
  status: detail.application.status,
  rejectionReason: detail.application.rejectionReason,
  rejectionCount: detail.application.rejectionCount,
  maxAttempts: detail.application.maxAttempts,
  nextSubmissionDate: detail.application.nextSubmissionDate?.toISOString() ?? null,
  user: {
    id: detail.applicant.id,
    email: detail.applicant.email,
    firstName: detail.applicant.firstName,
    lastName: detail.applicant.lastName,
    role: detail.applicant.role
  }
})
export type ApplicationSummary = ReturnType<typeof summary>

export interface ListOptions {
  readonly status?: string | undefined
  readonly search?: string | undefined
  readonly page?: number | undefined
  readonly limit?: number | undefined
}

export const listApplications = (options: ListOptions) =>
  Effect.gen(function* () {
    const service = yield* ProviderApplications
    const { page, limit } = pageOf(options, APPLICATIONS_PAGE_SIZE)
    const found = yield* service.list(Operator, { status: options.status, search: options.search, page, limit })
    const at = yield* now
    return {
      applications: found.rows.map((row) => {
        const view = toApplicationRowView(row, at)
        return {
          ...view,
          nextSubmissionDate: view.nextSubmissionDate?.toISOString() ?? null,
          submittedAt: view.submittedAt.toISOString(),
          createdAt: view.createdAt.toISOString()
        }
      }),
      pagination: pagination(found.total, page, limit)
    }
  })
export type ApplicationList = Effect.Effect.Success<ReturnType<typeof listApplications>>

export const approveApplication = (id: string) =>
  Effect.flatMap(ProviderApplications, (service) => Effect.map(service.approve(Operator, id), summary))

export const rejectApplication = (id: string, reason: string | undefined) =>
  Effect.flatMap(ProviderApplications, (service) => Effect.map(service.reject(Operator, id, reason), summary))

const label = (row: ApplicationList["applications"][number]) => {
  if (row.status !== "REJECTED") return row.status
  switch (row.resubmissionState) {
    case "FINALLY_REFUSED":
      return "REJECTED (finally refused)"
    case "COOLDOWN":
      return `REJECTED (${row.daysRemaining} day(s) before resubmission)`
    default:
      return "REJECTED (can resubmit)"
  }
}

export const renderList = (list: ApplicationList) =>
  list.applications.length === 0
    ? "No application."
    : [
        `${list.pagination.total} application(s), page ${list.pagination.page}/${Math.max(1, list.pagination.pages)}:`,
        ...list.applications.map(
          (a) =>
            `  ${a.id}  ${label(a).padEnd(34)} ${`${a.user.firstName} ${a.user.lastName}`.padEnd(28)} ${a.user.email.padEnd(36)} submitted ${a.submittedAt.slice(0, 10)}  attempts ${a.rejectionCount}/${a.maxAttempts}`
        )
      ].join("\n")

export const renderDecision = (verb: string, a: ApplicationSummary) =>
  `Application ${a.id} ${verb}: ${a.user.firstName} ${a.user.lastName} <${a.user.email}>, role ${a.user.role}.` +
  (a.status === "REJECTED"
    ? `\nReason: ${a.rejectionReason}\nAttempts: ${a.rejectionCount}/${a.maxAttempts}${a.nextSubmissionDate ? `, resubmission from ${a.nextSubmissionDate}` : ", finally refused"}`
    : "")
