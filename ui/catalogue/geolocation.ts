// The browser's position, asked with the spec's settings (section 9): on the services list a 3 s
// guard, a 5 s request timeout and low accuracy; on service creation a 10 s timeout, a 60 s cache
// and high accuracy. Nothing here ever blocks a screen: callers get a promise that settles.

import type { Position } from "./rules"

export type LocateFailure = "unsupported" | "denied" | "unavailable" | "timeout"

export interface LocateOptions {
  readonly timeoutMs: number
  readonly highAccuracy: boolean
  readonly maximumAgeMs?: number
  /** Give up after this long even if the browser has not answered (a permission prompt left open). */
  readonly guardMs?: number
}

export const LIST_LOCATE: LocateOptions = { guardMs: 3000, timeoutMs: 5000, highAccuracy: false }
export const CREATE_LOCATE: LocateOptions = { timeoutMs: 10_000, maximumAgeMs: 60_000, highAccuracy: true }

export class LocateError extends Error {
  constructor(readonly reason: LocateFailure) {
    super(reason)
  }
}

export const locate = (options: LocateOptions): Promise<Position> =>
  new Promise((resolve, reject) => {
    if (typeof navigator === "undefined" || !("geolocation" in navigator)) {
      reject(new LocateError("unsupported"))
      return
    }
    let settled = false
    const guard =
      options.guardMs === undefined ? undefined : setTimeout(() => finish(() => reject(new LocateError("timeout"))), options.guardMs)
    function finish(settle: () => void) {
      if (settled) return
      settled = true
      if (guard !== undefined) clearTimeout(guard)
      settle()
    }
    navigator.geolocation.getCurrentPosition(
      (position) => finish(() => resolve({ lat: position.coords.latitude, lng: position.coords.longitude })),
      (error) =>
        finish(() =>
          reject(
            new LocateError(error.code === error.PERMISSION_DENIED ? "denied" : error.code === error.TIMEOUT ? "timeout" : "unavailable")
          )
        ),
      { enableHighAccuracy: options.highAccuracy, timeout: options.timeoutMs, maximumAge: options.maximumAgeMs ?? 0 }
    )
  })

// The list and the search share one answer per visit: asking again on every screen would be noise.
let known: Position | null = null
let asking: Promise<Position | null> | null = null
let failed = false

/**
 * The visitor's position for the list and search screens, or null when unknown (never rejects).
 * After a failure only an explicit request (a "near me" click) asks the browser again.
 */
export const listPosition = (explicit = false): Promise<Position | null> => {
  if (known) return Promise.resolve(known)
  if (failed && !explicit && !asking) return Promise.resolve(null)
  asking ??= locate(LIST_LOCATE).then(
    (position) => (known = position),
    () => {
      failed = true
      asking = null
      return null
    }
  )
  return asking
}

export const knownPosition = () => known
