import { plural } from "@lingui/core/macro"
import { useLingui } from "@lingui/react/macro"
import type { ApplicationStatus, ResubmissionInfo } from "../api/contract"

export const MAX_FILE_BYTES = 5 * 1024 * 1024

export const StatusBadge = ({ status }: { status: ApplicationStatus }) => {
  const { t } = useLingui()
  const label = status === "PENDING" ? t`En attente` : status === "APPROVED" ? t`Approuvée` : t`Refusée`
  return <span className={`badge badge-status-${status.toLowerCase()}`}>{label}</span>
}

/** Definitively refused, days remaining before a resubmission, or resubmission possible. */
export const ResubmissionLabel = ({ info }: { info: ResubmissionInfo }) => {
  const { t } = useLingui()
  const count = info.rejectionCount
  const max = info.maxAttempts
  const days = info.daysRemaining ?? 0
  if (info.status !== "REJECTED") return null
  return (
    <p className="resubmission">
      <span>{plural(max, { one: `Refus : ${count} sur # tentative`, other: `Refus : ${count} sur # tentatives` })}</span>
      {" · "}
      {info.resubmissionState === "FINALLY_REFUSED" || info.isFinallyRefused ? (
        <strong>{t`Candidature définitivement refusée`}</strong>
      ) : info.resubmissionState === "COOLDOWN" ? (
        <span>{plural(days, { one: "Nouvelle soumission possible dans # jour", other: "Nouvelle soumission possible dans # jours" })}</span>
      ) : (
        <span>{t`Nouvelle soumission possible`}</span>
      )}
    </p>
  )
}

/** A file's size in the locale's units ("12 ko", "1,5 Mo" / "12 kB", "1.5 MB"). */
export const formatSize = (locale: string, bytes: number) =>
  bytes < 1024 * 1024
    ? new Intl.NumberFormat(locale, { style: "unit", unit: "kilobyte" }).format(Math.max(1, Math.round(bytes / 1024)))
    : new Intl.NumberFormat(locale, { style: "unit", unit: "megabyte", maximumFractionDigits: 1 }).format(bytes / 1024 / 1024)

/** A document's type as people say it (PDF, JPEG, PNG), not its MIME type. */
export const formatFileType = (contentType: string) =>
  contentType
    .replace(/^\w+\//, "")
    .replace(/^x-/, "")
    .toUpperCase()
