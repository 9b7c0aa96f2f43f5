import type { Browser } from "playwright-core"
import { describe, expect, it } from "vitest"
import { hasChromium, layoutProblems, seriousViolations, withServerAndChromium } from "./browser"
import type { TestServer } from "./server"
import { frenchSpacing, rawCodes, sameIsFine, visibleTexts } from "./strings"
import { type Language, type Role, seedWalk, walk, type WalkData, walkScreens } from "./walker"

/** The widths every route is visited at: a phone and a desktop. Texts are read at the desktop one. */
const WIDTHS = [375, 1280] as const
const TEXT_WIDTH = 1280

/** What one language's walk found wrong on the screens, and the texts each showed. */
const walkLanguage = async (server: TestServer, browser: Browser, data: WalkData, roles: ReadonlyArray<Role>, language: Language) => {
  const problems: Array<string> = []
  const texts = new Map<string, Set<string>>()
  // Both widths walk at once (one language at a time: the walk sets the accounts' language).
  await Promise.all(
    WIDTHS.map((width) =>
      walk(server, browser, data, { language, width, only: (screen) => roles.includes(screen.as) }, async (page, label) => {
        problems.push(...[...(await layoutProblems(page)), ...(await seriousViolations(page))].map((p) => `${width} px ${label}: ${p}`))
        if (width === TEXT_WIDTH) texts.set(label, new Set(await visibleTexts(page)))
      })
    )
  )
  return { problems, texts }
}

/** The strings check over both languages' texts: nothing the same in both but what may be, no raw code, no French spacing in English. */
const stringProblems = (texts: Record<Language, Map<string, Set<string>>>, userContent: ReadonlyArray<string>) => {
  const problems: Array<string> = []
  for (const [label, fr] of texts.fr) {
    const en = texts.en.get(label)
    if (!en) {
      problems.push(`${label} was not visited in English`)
      continue
    }
    for (const text of fr) if (en.has(text) && !sameIsFine(text, userContent)) problems.push(`${label}: same in both: "${text}"`)
    for (const [language, set] of [
      ["fr", fr],
      ["en", en]
    ] as const)
      for (const text of set)
        for (const code of rawCodes(text, userContent)) problems.push(`${label} (${language}): raw code ${code} in "${text}"`)
    for (const text of en) if (frenchSpacing(text, userContent)) problems.push(`${label} (en): French spacing in "${text}"`)
  }
  return problems
}

/**
 * The walk of every route of `roles` (test/support/walker.ts), each (route, role, language, width)
 * visited once and checked at once for accessibility (axe: no serious or critical violation), layout
 * (no sideways scroll, overlapping controls or image without alt) and, at 1280 px, its strings (issue
 * 16: a text the same in French and English is left untranslated unless it may be, no raw code). The
 * roles are split across files (test/browser/walk-*.test.ts) so the two workers share the walk.
 */
export const routeWalk = (roles: ReadonlyArray<Role>) =>
  describe.skipIf(!hasChromium)(`the route walk as ${roles.join(", ")}: accessibility, layout and strings`, () => {
    let server: TestServer
    let browser: Browser
    let data: WalkData
    const texts: Record<Language, Map<string, Set<string>>> = { fr: new Map(), en: new Map() }
    withServerAndChromium(async (started) => {
      ;({ server, browser } = started)
      data = await seedWalk(server)
    })

    for (const language of ["fr", "en"] as const)
      it(`every route at 375 and 1280 px in ${language}: no overflow, overlap, image without alt or serious violation`, async () => {
        const found = await walkLanguage(server, browser, data, roles, language)
        texts[language] = found.texts
        expect(found.problems).toEqual([])
      }, 600_000)

    it("no screen shows a French text in English or the reverse, nor a raw code", () => {
      const screens = walkScreens(data).filter((screen) => roles.includes(screen.as))
      // Each screen and each of its dialogs was read in both languages.
      expect(texts.fr.size).toBeGreaterThanOrEqual(screens.length)
      expect(texts.en.size).toBe(texts.fr.size)
      expect(
        stringProblems(
          texts,
          [...data.userContent].sort((a, b) => b.length - a.length)
        )
      ).toEqual([])
    })
  })
