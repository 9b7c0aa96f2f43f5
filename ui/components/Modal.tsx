import { useLingui } from "@lingui/react/macro"
import { useEffect, useId, useRef, type ReactNode } from "react"
import { FOCUSABLE, useFocusTrap } from "./focus-trap"

const FIELDS = "input:not([disabled]):not([type='hidden']), select:not([disabled]), textarea:not([disabled])"

/**
 * A modal dialog (a form, a detail): named by its title, focus goes to its first field (else its
 * first control after the close button), stays inside while it is open, Escape or the close button
 * closes it, and focus goes back to where it was. The rest of the page is inert (showModal).
 */
export const Modal = ({
  title,
  children,
  onClose,
  wide = false,
  sheet = false,
  closeLabel
}: {
  title: string
  children: ReactNode
  onClose: () => void
  wide?: boolean
  /** A phone's bottom sheet (the list screens' filters): full width, from the bottom of the screen. */
  sheet?: boolean
  closeLabel?: string
}) => {
  const { t } = useLingui()
  const titleId = useId()
  const dialog = useRef<HTMLDialogElement>(null)
  const closeRef = useRef(onClose)
  closeRef.current = onClose

  // Opened before the trap's effect runs (declared first) so that its first field can take focus.
  useEffect(() => {
    const element = dialog.current
    if (element && typeof element.showModal === "function" && !element.open) element.showModal()
    return () => {
      if (element?.open) element.close()
    }
  }, [])
  useFocusTrap(dialog, {
    onEscape: () => closeRef.current(),
    initialFocus: (element) =>
      element.querySelector<HTMLElement>(FIELDS) ??
      Array.from(element.querySelectorAll<HTMLElement>(FOCUSABLE)).find((node) => !node.classList.contains("modal-close")) ??
      element.querySelector<HTMLElement>(".modal-close")
  })

  return (
    <dialog
      ref={dialog}
      className={["dialog", "modal", wide ? "modal-wide" : "", sheet ? "modal-sheet" : ""].filter(Boolean).join(" ")}
      aria-modal="true"
      aria-labelledby={titleId}
      onCancel={(event) => {
        // The browser's own Escape handling: keep the dialog under React's control.
        event.preventDefault()
        closeRef.current()
      }}
    >
      <div className="modal-head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="button-ghost button-small modal-close" onClick={() => closeRef.current()}>
          {closeLabel ?? t`Fermer`}
        </button>
      </div>
      {children}
    </dialog>
  )
}
