import { type RefObject, useEffect, useRef } from "react"

// The one focus trap of the modal surfaces (Modal, ConfirmDialog, the mobile menu): Tab and
// Shift+Tab cycle inside, Escape closes, and focus goes back to where it was.

export const FOCUSABLE =
  "a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), iframe, [tabindex]:not([tabindex='-1'])"

/**
 * Where Tab (or Shift+Tab) must send the focus to stay inside: the first control after the last one
 * (or from outside), the last before the first; undefined when the browser's own move stays inside.
 */
export const wrappedFocus = <E>(focusables: ReadonlyArray<E>, active: E | null, inside: boolean, backwards: boolean): E | undefined => {
  const first = focusables[0]
  const last = focusables[focusables.length - 1]
  if (backwards) return active === first || !inside ? last : undefined
  return active === last || !inside ? first : undefined
}

export interface FocusTrapOptions {
  /** Escape (and nothing else) calls it; the latest one given is used. */
  readonly onEscape: () => void
  /** The control that takes focus on opening (default: the first focusable). */
  readonly initialFocus?: (container: HTMLElement) => HTMLElement | null | undefined
  /** Give focus back to the element that had it before opening, on closing (default true). */
  readonly restoreFocus?: boolean
  /** Listen on the document rather than the container (a panel that is not a <dialog>). */
  readonly listenOnDocument?: boolean
}

export const useFocusTrap = (container: RefObject<HTMLElement | null>, options: FocusTrapOptions) => {
  const latest = useRef(options)
  latest.current = options
  useEffect(() => {
    const element = container.current
    if (!element) return
    const { initialFocus, restoreFocus = true, listenOnDocument = false } = latest.current
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null
    const focusables = () => Array.from(element.querySelectorAll<HTMLElement>(FOCUSABLE))
    ;(initialFocus ? initialFocus(element) : focusables()[0])?.focus()
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.preventDefault()
        latest.current.onEscape()
        return
      }
      if (event.key !== "Tab") return
      const active = document.activeElement instanceof HTMLElement ? document.activeElement : null
      const target = wrappedFocus(focusables(), active, element.contains(active), event.shiftKey)
      if (target === undefined) return
      event.preventDefault()
      target.focus()
    }
    const listener: HTMLElement | Document = listenOnDocument ? document : element
    listener.addEventListener("keydown", onKey as EventListener)
    return () => {
      listener.removeEventListener("keydown", onKey as EventListener)
      if (restoreFocus && opener?.isConnected) opener.focus()
    }
  }, [container])
}
