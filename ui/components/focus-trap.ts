import { type RefObject, useEffect, useRef } from "react"

// The one focus trap of the modal dialogs (Modal, ConfirmDialog): Tab and Shift+Tab cycle inside,
// Escape closes, and focus goes back to where it was. The shell's mobile menu keeps its own (Nav.tsx):
// importing this module there would make it a shared first-load chunk.

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
    const { initialFocus, restoreFocus = true, listenOnDocument } = latest.current
    // Only elements take focus; the casts cost no byte where a check would.
    const opener = document.activeElement as HTMLElement | null
    const focusables = () => Array.from(element.querySelectorAll<HTMLElement>(FOCUSABLE))
    ;(initialFocus ? initialFocus(element) : focusables()[0])?.focus()
    const onKey = (event: Event) => {
      const { key, shiftKey } = event as KeyboardEvent
      if (key === "Escape") latest.current.onEscape()
      else if (key === "Tab") {
        const active = document.activeElement as HTMLElement | null
        const target = wrappedFocus(focusables(), active, element.contains(active), shiftKey)
        if (!target) return
        target.focus()
      } else return
      event.preventDefault()
    }
    const listener = listenOnDocument ? document : element
    listener.addEventListener("keydown", onKey)
    return () => {
      listener.removeEventListener("keydown", onKey)
      if (restoreFocus && opener?.isConnected) opener.focus()
    }
  }, [container])
}
