import { useLingui } from "@lingui/react/macro"
import { useAtomValue } from "jotai"
import { useEffect, useState } from "react"
import { dismissToast, TOAST_MS, toastsAtom, type Toast } from "../state/toasts"

/** One toast: gone after 5 s, but the countdown pauses while it is hovered or focused. */
const ToastItem = ({ toast }: { toast: Toast }) => {
  const { t, i18n } = useLingui()
  const [paused, setPaused] = useState(false)
  useEffect(() => {
    if (paused) return
    const timer = setTimeout(() => dismissToast(toast.id), TOAST_MS)
    return () => clearTimeout(timer)
  }, [paused, toast.id])
  const urgent = toast.kind === "error" || toast.kind === "warning"
  return (
    <div
      className={`toast toast-${toast.kind}`}
      role={urgent ? "alert" : "status"}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <p>{typeof toast.text === "string" ? toast.text : i18n._(toast.text)}</p>
      <button type="button" className="toast-close" onClick={() => dismissToast(toast.id)}>
        <span aria-hidden="true">×</span>
        <span className="sr-only">{t`Fermer la notification`}</span>
      </button>
    </div>
  )
}

export const Toasts = () => {
  const { t } = useLingui()
  const toasts = useAtomValue(toastsAtom)
  return (
    <section className="toasts" aria-label={t`Notifications`}>
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </section>
  )
}
