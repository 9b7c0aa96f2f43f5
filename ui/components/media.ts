import { useSyncExternalStore } from "react"

/** Whether a media query matches now, following changes (window resize, rotation). */
export const useMediaQuery = (query: string): boolean =>
  useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query)
      list.addEventListener("change", onChange)
      return () => list.removeEventListener("change", onChange)
    },
    () => window.matchMedia(query).matches,
    () => false
  )

/** Below the spec's first breakpoint (768 px): the mobile layout. */
export const MOBILE_QUERY = "(max-width: 767.98px)"
