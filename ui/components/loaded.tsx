// One way for screens to load data: `useAsync` (./async) gives the state, `Loaded` shows its
// loading, failure and data states. Every screen renders through it.

import { useLingui } from "@lingui/react/macro"
import type { ReactNode } from "react"
import { ApiError } from "../api/client"
import type { AsyncState } from "./async"
import { Loading } from "./page"

/** The raw reason of a failure, for the error states that show it. */
export const failureText = (error: unknown) =>
  error instanceof ApiError ? error.message || error.code : error instanceof Error ? error.message : String(error)

/** The server said there is no such thing (404): screens answer with their own not-found page. */
export const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404

export const LoadError = ({
  title,
  subtitle,
  error,
  onRetry
}: {
  title: string
  subtitle: string
  error: unknown
  onRetry?: () => void
}) => {
  const { t } = useLingui()
  return (
    <div className="alert alert-error" role="alert">
      <p className="alert-title">{title}</p>
      <p>{subtitle}</p>
      <p className="raw-error">{failureText(error)}</p>
      {onRetry ? (
        <button type="button" className="button-secondary" onClick={onRetry}>
          {t`Réessayer`}
        </button>
      ) : null}
    </div>
  )
}

/** The failure state: the generic error with a retry, or the screen's own (not found, not accessible...). */
type Failure =
  | { readonly errorTitle: string; readonly errorSubtitle: string; readonly failure?: undefined }
  | { readonly failure: (error: unknown) => ReactNode; readonly errorTitle?: undefined; readonly errorSubtitle?: undefined }

/**
 * A part of a screen that loads (the state of `useAsync`): the loading state, the failure with a
 * retry, then its data.
 * - `current`: a newer copy the screen already holds (what its own save answered): shown as the data
 *   while a reload runs or if it fails, so the screen keeps its content (and focus) on screen.
 * - `wrapLoading`: where the loading state sits when the data's own page is not there yet (a page
 *   with its title); `failure` renders a whole page when a screen has one for its failures.
 */
export const Loaded = <T,>(
  props: {
    state: AsyncState<T>
    current?: T | null
    /** What is loading ("Chargement de vos services…"); the generic label otherwise. */
    loadingLabel?: string
    /** A retry button under the generic failure, when given. */
    onRetry?: () => void
    wrapLoading?: (spinner: ReactNode) => ReactNode
    children: (data: T) => ReactNode
  } & Failure
) => {
  const { state, current, loadingLabel, onRetry, wrapLoading = (spinner) => spinner, children } = props
  if (current !== undefined && current !== null) return <>{children(current)}</>
  if (state.status === "ok") return <>{children(state.data)}</>
  if (state.status === "loading") return <>{wrapLoading(<Loading label={loadingLabel} />)}</>
  if (props.failure !== undefined) return <>{props.failure(state.error)}</>
  return <LoadError title={props.errorTitle} subtitle={props.errorSubtitle} error={state.error} onRetry={onRetry} />
}
