import { useLingui } from "@lingui/react/macro"
import { useEffect, useId, useRef, type ReactNode } from "react"
import { useFocusTrap } from "./focus-trap"

/**
 * A confirmation in a modal dialog: focus moves to the safe choice (cancel), stays inside while it
 * is open, Escape cancels, and focus goes back to where it was when it closes.
 */
export const ConfirmDialog = ({
  title,
  children,
  confirmLabel,
  onConfirm,
  onCancel,
  busy = false
}: {
  title: string
  children: ReactNode
  confirmLabel: string
  onConfirm: () => void
  onCancel: () => void
  busy?: boolean
}) => {
  const { t } = useLingui()
  const titleId = useId()
  const bodyId = useId()
  const dialog = useRef<HTMLDialogElement>(null)
  const cancel = useRef<HTMLButtonElement>(null)
  const cancelRef = useRef(onCancel)
  cancelRef.current = onCancel

  // Opened before the trap's effect runs (declared first) so that the cancel button can take focus.
  useEffect(() => {
    const element = dialog.current
    if (element && typeof element.showModal === "function" && !element.open) element.showModal()
    return () => {
      if (element?.open) element.close()
    }
  }, [])
  useFocusTrap(dialog, { onEscape: () => cancelRef.current(), initialFocus: () => cancel.current })

  return (
    <dialog
      ref={dialog}
      className="dialog"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onCancel={(event) => {
        // The browser's own Escape handling: keep the dialog under React's control.
        event.preventDefault()
        cancelRef.current()
      }}
    >
      <h2 id={titleId}>{title}</h2>
      <div id={bodyId}>{children}</div>
      <div className="actions">
        <button type="button" className="button-secondary" ref={cancel} onClick={onCancel}>
          {t`Annuler`}
        </button>
        <button type="button" className="button button-danger" onClick={onConfirm} disabled={busy} aria-busy={busy || undefined}>
          {busy ? <span className="spinner" aria-hidden="true" /> : null}
          {confirmLabel}
        </button>
      </div>
    </dialog>
  )
}
