import { useEffect, useState } from "react"
import { navigate } from "wouter/use-browser-location"
import { SEARCH_DEBOUNCE_MS } from "../catalogue/rules"

/**
 * Filters live in the URL of a list screen: this writes changes to `pathname`'s query string
 * (replace: filters are not history steps) and restarts paging at 1 unless the page is changed.
 */
export const filterUpdater = (pathname: string) => (changes: Record<string, string | undefined>) => {
  // A debounced call may fire after a link was followed (the old screen stays mounted, hidden,
  // while the next one loads): it must not pull the visitor back here.
  if (location.pathname !== pathname) return
  // From the address bar, not this render: a debounced call must not undo a newer change.
  const next = new URLSearchParams(location.search)
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined || value === "") next.delete(key)
    else next.set(key, value)
  }
  if (!("page" in changes)) next.delete("page")
  const query = next.toString()
  navigate(query ? `${pathname}?${query}` : pathname, { replace: true })
}

/** A text box that follows the URL's value and pushes its own there once typing pauses (300 ms). */
export const useDebouncedText = (urlValue: string, push: (text: string) => void) => {
  const [text, setText] = useState(urlValue)
  useEffect(() => setText((current) => (current.trim() === urlValue.trim() ? current : urlValue)), [urlValue])
  useEffect(() => {
    if (text.trim() === urlValue.trim()) return
    const timer = setTimeout(() => push(text.trim()), SEARCH_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [text]) // only typing restarts the timer
  return [text, setText] as const
}
