import type { Browser, Locator } from "playwright-core"

/**
 * Playwright's waits poll from Node with a backoff of 0, 20, 50, 100, 100 ms, then every 500 ms
 * (`retryWithProgressAndBackoff` in playwright-core; steps longer than a fifth of the call's timeout
 * are dropped): an element that shows 280 ms after a click is found at 770 ms, and the suite's waits
 * are nearly all of that shape. Here each wait of a locator runs as a chain of short waits, whose
 * backoff never passes 50 ms, under the caller's whole timeout; an action first waits so, then starts
 * on an element already in the state it needs. Same checks, same strictness, same errors at the end.
 */
const SLICE_MS = 250
/** Playwright's own default when a call names no timeout (the suite never changes it). */
const DEFAULT_TIMEOUT_MS = 30_000

type WaitOptions = { state?: "attached" | "detached" | "visible" | "hidden"; timeout?: number }
type Waiter = (this: Locator, options?: WaitOptions) => Promise<void>
type Method = (this: Locator, ...args: Array<unknown>) => Promise<unknown>

/** What each action needs of its element before Playwright's own checks (enabled, stable, editable). */
const preconditions = {
  click: "visible",
  dblclick: "visible",
  hover: "visible",
  check: "visible",
  uncheck: "visible",
  fill: "visible",
  selectOption: "visible",
  press: "attached",
  setInputFiles: "attached",
  textContent: "attached",
  innerText: "attached",
  getAttribute: "attached",
  inputValue: "attached"
} as const

const isTimeout = (error: unknown) => error instanceof Error && error.name === "TimeoutError"

/** `waitFor` in slices of SLICE_MS until `timeout` (0: none); the last slice's error is Playwright's own. */
const waitInSlices = async (locator: Locator, waitFor: Waiter, options: WaitOptions = {}) => {
  const timeout = options.timeout ?? DEFAULT_TIMEOUT_MS
  const deadline = timeout === 0 ? Number.POSITIVE_INFINITY : Date.now() + timeout
  for (;;) {
    const left = deadline - Date.now()
    if (left <= SLICE_MS)
      return waitFor.call(locator, { ...options, timeout: Math.max(1, Math.ceil(left)) }).catch((error: unknown) => {
        // The caller's timeout, not the last slice's, in the message a failing test shows.
        if (isTimeout(error)) (error as Error).message = (error as Error).message.replace(/Timeout \d+ms/, `Timeout ${timeout}ms`)
        throw error
      })
    try {
      return await waitFor.call(locator, { ...options, timeout: SLICE_MS })
    } catch (error) {
      if (!isTimeout(error)) throw error
    }
  }
}

/** The options argument of each action: the last one, when it is an object. */
const optionsOf = (args: Array<unknown>): { timeout?: number; force?: boolean } => {
  const last = args.at(-1)
  return typeof last === "object" && last !== null && !Array.isArray(last) ? last : {}
}

const patched = Symbol("promptWaits")

const patchLocator = (prototype: Record<PropertyKey, unknown>) => {
  if (prototype[patched]) return
  prototype[patched] = true
  const waitFor = prototype.waitFor as Waiter
  prototype.waitFor = function (this: Locator, options?: WaitOptions) {
    return waitInSlices(this, waitFor, options)
  }
  for (const [name, state] of Object.entries(preconditions)) {
    const action = prototype[name] as Method
    prototype[name] = async function (this: Locator, ...args: Array<unknown>) {
      const { timeout, force } = optionsOf(args)
      if (!force) await waitInSlices(this, waitFor, { state, timeout })
      return action.apply(this, args)
    }
  }
}

/** Makes every locator of this Playwright client wait as above (once per process). */
export const promptWaits = async (browser: Browser) => {
  const page = await browser.newPage()
  patchLocator(Object.getPrototypeOf(page.locator("html")))
  await page.close()
}
