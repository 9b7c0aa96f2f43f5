import { useCallback, useEffect, useRef, useState, type DependencyList } from "react"

export type AsyncState<T> =
  | { readonly status: "loading" }
  | { readonly status: "ok"; readonly data: T }
  | { readonly status: "error"; readonly error: unknown }

/**
 * Runs `load` when `deps` change and on `reload()`; an answer that arrives after a newer request
 * started is dropped, so a slow old search never overwrites a fresh one.
 */
export const useAsync = <T>(load: () => Promise<T>, deps: DependencyList) => {
  const [state, setState] = useState<AsyncState<T>>({ status: "loading" })
  const latest = useRef(0)
  const quietly = useRef(false)
  const [round, setRound] = useState(0)
  useEffect(() => {
    const id = ++latest.current
    // A quiet reload keeps the current answer on screen (and the focus where it is) until the new one.
    if (!quietly.current) setState({ status: "loading" })
    quietly.current = false
    load().then(
      (data) => id === latest.current && setState({ status: "ok", data }),
      (error: unknown) => id === latest.current && setState({ status: "error", error })
    )
  }, [...deps, round])
  useEffect(
    () => () => {
      latest.current++
    },
    []
  )
  const reload = useCallback((options?: { quiet?: boolean }) => {
    quietly.current = options?.quiet === true
    setRound((n) => n + 1)
  }, [])
  return [state, reload] as const
}
