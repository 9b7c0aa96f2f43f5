import { type ReactNode, useEffect, useId, useRef } from "react"

/**
 * A row's actions behind one button (a popover: on the top layer, so a table's scroll box never clips
 * it; Escape and a click outside close it, and Tab goes from the button into it). A click on one of
 * its buttons closes it.
 */
export const ActionMenu = ({ label, children }: { label: ReactNode; children: ReactNode }) => {
  const id = useId()
  const button = useRef<HTMLButtonElement>(null)
  const menu = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const element = menu.current
    if (!element) return
    const place = () => {
      const anchor = button.current?.getBoundingClientRect()
      if (!anchor) return
      const width = element.offsetWidth
      const left = Math.max(8, Math.min(anchor.right - width, window.innerWidth - width - 8))
      const below = anchor.bottom + 4
      const top = below + element.offsetHeight > window.innerHeight - 8 ? Math.max(8, anchor.top - element.offsetHeight - 4) : below
      element.style.left = `${left}px`
      element.style.top = `${top}px`
    }
    const close = () => {
      if (element.matches(":popover-open")) element.hidePopover()
    }
    const onToggle = (event: Event) => {
      if ((event as ToggleEvent).newState !== "open") return
      place()
      window.addEventListener("scroll", close, { once: true, capture: true })
      window.addEventListener("resize", close, { once: true })
    }
    element.addEventListener("toggle", onToggle)
    return () => element.removeEventListener("toggle", onToggle)
  }, [])
  return (
    <>
      <button ref={button} type="button" className="button-secondary button-small action-menu-button" popoverTarget={id}>
        {label}
        <span className="action-menu-caret" aria-hidden="true" />
      </button>
      <div
        ref={menu}
        id={id}
        popover="auto"
        className="action-menu"
        onClick={(event) => {
          if ((event.target as HTMLElement).closest("button, a")) menu.current?.hidePopover()
        }}
      >
        {children}
      </div>
    </>
  )
}
