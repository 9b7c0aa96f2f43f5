import { useCallback, useEffect, useRef, useState, type DependencyList } from "react"
import type { AsyncState } from "./async"

/**
 * Like useAsync, plus a periodic refresh while the page is visible (spec section 9: service detail
 * and bookings every 10 s) and one when it becomes visible again. `load(true)` is a background
 * refresh: its answer replaces the data on screen, but its failure keeps the last good answer (a
 * server blip must not wipe a screen, or a form open on it). `reload()` shows the loading state;
 * `reload({ quiet: true })` refreshes in the background.
 */
export const useLive = <T>(load: (background: boolean) => Promise<T>, deps: DependencyList, intervalMs: number, enabled = true) => {
  const [state, setState] = useState<AsyncState<T>>({ status: "loading" })
  const latest = useRef(0)
  const loadRef = useRef(load)
  loadRef.current = load

  const run = useCallback((background: boolean) => {
    const id = ++latest.current
    if (!background) setState({ status: "loading" })
    loadRef.current(background).then(
      (data) => {
        if (id === latest.current) setState({ status: "ok", data })
      },
      (error: unknown) => {
        if (id !== latest.current) return
        setState((previous) => (background && previous.status === "ok" ? previous : { status: "error", error }))
      }
    )
  }, [])

  useEffect(() => {
    run(false)
  }, deps)

  useEffect(
    () => () => {
      latest.current++
    },
    []
  )

  useEffect(() => {
    if (!enabled || intervalMs <= 0) return
    const refresh = () => {
      if (document.visibilityState === "visible") run(true)
    }
    const timer = setInterval(refresh, intervalMs)
    document.addEventListener("visibilitychange", refresh)
    return () => {
      clearInterval(timer)
      document.removeEventListener("visibilitychange", refresh)
    }
  }, [enabled, intervalMs, run])

  const reload = useCallback((options?: { quiet?: boolean }) => run(options?.quiet === true), [run])
  return [state, reload] as const
}
