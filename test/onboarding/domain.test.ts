import { Either } from "effect"
import { describe, expect, it } from "vitest"
import {
  type ApplicationState,
  decideReject,
  decideResubmit,
  decideSubmit,
  missingFiles,
  resubmissionOf,
  validateApplicationForm,
  validateVerification
} from "../../src/modules/onboarding/domain"
import { dayParam, translate } from "../../src/platform/messages"

const NOW = new Date("2025-06-15T12:00:00Z")
const DAY = 86_400_000
const details = (r: Either.Either<unknown, object>) =>
  Either.isLeft(r) && "details" in r.left
    ? (r.left as { details: ReadonlyArray<{ field: string; key: string }> }).details.map((d) => [d.field, d.key])
    : []
const code = (r: Either.Either<unknown, { code: string }>) => (Either.isLeft(r) ? r.left.code : "OK")
const pending: ApplicationState = { status: "PENDING", rejectionCount: 0, maxAttempts: 3, nextSubmissionDate: null }

describe("the application form", () => {
  it("creation needs skills, experience, motivation and an adult date of birth; an edit only checks what it sends", () => {
    expect(details(validateApplicationForm({}, "create", { dateOfBirth: null }, NOW))).toEqual([
      ["skills", "validation.required"],
      ["experience", "validation.required"],
      ["motivation", "validation.required"],
      ["dateOfBirth", "validation.required"]
    ])
    const ok = validateApplicationForm(
      { skills: " a ", experience: "b", motivation: "c", bankDocumentType: "bank_statement" },
      "create",
      { dateOfBirth: "2000-01-01" },
      NOW
    )
    expect(Either.getOrThrow(ok)).toEqual({ skills: "a", experience: "b", motivation: "c", types: { bankDocument: "BANK_STATEMENT" } })
    expect(
      details(
        validateApplicationForm(
          { skills: "a", experience: "b", motivation: "c", dateOfBirth: "2007-06-16" },
          "create",
          { dateOfBirth: null },
          NOW
        )
      )
    ).toEqual([["dateOfBirth", "profile.minimumAge"]])
    expect(Either.getOrThrow(validateApplicationForm({ motivation: "new" }, "edit", { dateOfBirth: "1990-01-01" }, NOW))).toEqual({
      motivation: "new",
      types: {}
    })
    expect(details(validateApplicationForm({ skills: "   " }, "edit", { dateOfBirth: "1990-01-01" }, NOW))).toEqual([
      ["skills", "validation.required"]
    ])
    expect(
      details(
        validateApplicationForm(
          { skills: "x".repeat(2001), experience: "b", motivation: "c" },
          "create",
          { dateOfBirth: "1990-01-01" },
          NOW
        )
      )
    ).toEqual([["skills", "validation.tooLong"]])
    expect(missingFiles(["identityDocument", "profilePicture"], "create").map((i) => i.field)).toEqual(["addressDocument", "bankDocument"])
    expect(missingFiles([], "edit")).toEqual([])
  })
})

describe("decisions", () => {
  it("submit: clients without an application only", () => {
    expect(code(decideSubmit("CLIENT", undefined, NOW))).toBe("OK")
    expect(code(decideSubmit("PROVIDER", undefined, NOW))).toBe("ALREADY_PROVIDER")
    expect(code(decideSubmit("ADMIN", undefined, NOW))).toBe("CLIENTS_ONLY")
    expect(code(decideSubmit("CLIENT", pending, NOW))).toBe("APPLICATION_PENDING")
    expect(code(decideSubmit("CLIENT", { ...pending, status: "APPROVED" }, NOW))).toBe("APPLICATION_APPROVED")
    expect(code(decideSubmit("CLIENT", { ...pending, status: "REJECTED", rejectionCount: 1 }, NOW))).toBe("APPLICATION_REJECTED")
    expect(code(decideSubmit("CLIENT", { ...pending, status: "REJECTED", rejectionCount: 3 }, NOW))).toBe("APPLICATION_FINALLY_REFUSED")
  })

  it("reject: reason first (422), then status (409); counts the attempt and sets the cooldown unless final", () => {
    expect(details(decideReject(pending, " \t ", NOW, 7))).toEqual([["rejectionReason", "onboarding.reasonRequired"]])
    expect(details(decideReject(pending, undefined, NOW, 7))).toEqual([["rejectionReason", "onboarding.reasonRequired"]])
    expect(details(decideReject(pending, "x".repeat(1001), NOW, 7))).toEqual([["rejectionReason", "validation.tooLong"]])
    expect(code(decideReject({ ...pending, status: "APPROVED" }, "r", NOW, 7))).toBe("APPLICATION_NOT_PENDING")
    const first = Either.getOrThrow(decideReject(pending, "  Flou  ", NOW, 7))
    expect(first).toMatchObject({
      status: "REJECTED",
      rejectionCount: 1,
      rejectionReason: "Flou",
      nextSubmissionDate: new Date(NOW.getTime() + 7 * DAY)
    })
    const last = Either.getOrThrow(decideReject({ ...pending, rejectionCount: 2 }, "Flou", NOW, 7))
    expect(last).toMatchObject({ rejectionCount: 3, nextSubmissionDate: null })
    expect(resubmissionOf(last, NOW).state).toBe("FINALLY_REFUSED")
  })

  it("resubmit: only a rejected application, after the cooldown, below maxAttempts", () => {
    const rejected = { ...pending, status: "REJECTED" as const, rejectionCount: 1, nextSubmissionDate: new Date(NOW.getTime() + 2.5 * DAY) }
    expect(code(decideResubmit("CLIENT", undefined, NOW))).toBe("APPLICATION_NOT_FOUND")
    expect(code(decideResubmit("CLIENT", pending, NOW))).toBe("APPLICATION_PENDING")
    const early = decideResubmit("CLIENT", rejected, NOW)
    expect(code(early)).toBe("RESUBMISSION_TOO_EARLY")
    expect(Either.isLeft(early) && early.left.params).toEqual({ date: dayParam(new Date("2025-06-18T00:00:00Z")), days: "3" })
    expect(Either.isLeft(early) && translate("fr", early.left.key, early.left.params)).toContain("à partir du 18 juin 2025")
    expect(Either.getOrThrow(decideResubmit("CLIENT", rejected, new Date(NOW.getTime() + 2.5 * DAY)))).toMatchObject({
      status: "PENDING",
      nextSubmissionDate: null
    })
    expect(code(decideResubmit("CLIENT", { ...rejected, rejectionCount: 3, nextSubmissionDate: null }, NOW))).toBe(
      "APPLICATION_FINALLY_REFUSED"
    )
    expect(code(decideResubmit("PROVIDER", { ...pending, status: "APPROVED" }, NOW))).toBe("APPLICATION_APPROVED")
  })

  it("document verification: true, false or null, optional trimmed notes", () => {
    expect(Either.getOrThrow(validateVerification({ isVerified: true, notes: "  ok " }))).toEqual({ isVerified: true, notes: "ok" })
    expect(Either.getOrThrow(validateVerification({ isVerified: null, notes: "  " }))).toEqual({ isVerified: null, notes: null })
    expect(details(validateVerification({}))).toEqual([["isVerified", "validation.required"]])
    expect(details(validateVerification({ isVerified: "yes" }))).toEqual([["isVerified", "onboarding.isVerifiedInvalid"]])
  })
})
