import { useLingui } from "@lingui/react/macro"
import type { ReportStatus } from "../api/contract"

/** The moderation queue's statuses as admins read them (issue 15). */
export const useReportStatusLabels = (): Record<ReportStatus, string> => {
  const { t } = useLingui()
  return {
    OPEN: t`À traiter`,
    DISMISSED: t`Classé sans suite`,
    WARNED: t`Averti`,
    MESSAGE_HIDDEN: t`Message masqué`,
    ACCOUNT_DEACTIVATED: t`Compte désactivé`
  }
}

export const ReportStatusBadge = ({ status }: { status: ReportStatus }) => {
  const labels = useReportStatusLabels()
  const tone = status === "OPEN" ? "warning" : status === "DISMISSED" ? "neutral" : "danger"
  return <span className={`badge status-${tone}`}>{labels[status]}</span>
}
