import { useLingui } from "@lingui/react/macro"
import { useEffect, useId, useRef, type ReactNode } from "react"

const FOCUSABLE = "a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), iframe, [tabindex]:not([tabindex='-1'])"
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
  closeLabel
}: {
  title: string
  children: ReactNode
  onClose: () => void
  wide?: boolean
  closeLabel?: string
}) => {
  const { t } = useLingui()
  const titleId = useId()
  const dialog = useRef<HTMLDialogElement>(null)
  const closeRef = useRef(onClose)
  closeRef.current = onClose

  useEffect(() => {
    const element = dialog.current
    if (!element) return
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null
    if (typeof element.showModal === "function" && !element.open) element.showModal()
    const first =
      element.querySelector<HTMLElement>(FIELDS) ??
      Array.from(element.querySelectorAll<HTMLElement>(FOCUSABLE)).find((node) => !node.classList.contains("modal-close")) ??
      element.querySelector<HTMLElement>(".modal-close")
    first?.focus()
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.preventDefault()
        closeRef.current()
        return
      }
      if (event.key !== "Tab") return
      const list = Array.from(element.querySelectorAll<HTMLElement>(FOCUSABLE))
      const head = list[0]
      const last = list[list.length - 1]
      if (event.shiftKey && (document.activeElement === head || !element.contains(document.activeElement))) {
        event.preventDefault()
        last?.focus()
      } else if (!event.shiftKey && (document.activeElement === last || !element.contains(document.activeElement))) {
        event.preventDefault()
        head?.focus()
      }
    }
    element.addEventListener("keydown", onKey)
    return () => {
      element.removeEventListener("keydown", onKey)
      if (element.open) element.close()
      if (opener?.isConnected) opener.focus()
    }
  }, [])

  return (
    <dialog
      ref={dialog}
      className={wide ? "dialog modal modal-wide" : "dialog modal"}
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
