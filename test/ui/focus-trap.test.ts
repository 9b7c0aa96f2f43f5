import fc from "fast-check"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { wrappedFocus } from "../../ui/components/focus-trap"

const uiRoot = new URL("../../ui", import.meta.url).pathname
const sources = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? sources(path) : /\.tsx?$/.test(name) ? [path] : []
  })

describe("the one focus trap", () => {
  const list = ["close", "field", "save"]

  it("wraps Tab from the last control to the first, and Shift+Tab from the first to the last", () => {
    expect(wrappedFocus(list, "save", true, false)).toBe("close")
    expect(wrappedFocus(list, "close", true, true)).toBe("save")
  })

  it("brings the focus back inside from outside, and leaves the browser's move alone in between", () => {
    expect(wrappedFocus(list, null, false, false)).toBe("close")
    expect(wrappedFocus(list, null, false, true)).toBe("save")
    expect(wrappedFocus(list, "field", true, false)).toBeUndefined()
    expect(wrappedFocus(list, "field", true, true)).toBeUndefined()
  })

  it("never sends the focus outside the list", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer(), { minLength: 1 }), fc.nat(), fc.boolean(), (focusables, at, backwards) => {
        const active = focusables[at % focusables.length]!
        const target = wrappedFocus(focusables, active, true, backwards)
        expect(target === undefined || focusables.includes(target)).toBe(true)
      })
    )
  })

  it("is the only place of the UI that handles the Tab key, but the shell's mobile menu", () => {
    // Nav.tsx is first-load code: sharing the hook with the lazy dialogs would add a first-load chunk.
    const handlers = sources(uiRoot)
      .filter((file) => /key\s*[!=]==?\s*"Tab"/.test(readFileSync(file, "utf8")))
      .map((file) => file.slice(uiRoot.length))
    expect(handlers.sort()).toEqual(["/components/Nav.tsx", "/components/focus-trap.ts"])
  })
})
