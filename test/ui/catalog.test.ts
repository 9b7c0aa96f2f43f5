// Every message the UI uses must have a non-empty French and English translation, in the .po
// files and in the compiled catalogs that ship (spec: bilingual interface, French by default).
import { getConfig } from "@lingui/conf"
import { getCatalogs } from "@lingui/cli/api"
import type { Messages } from "@lingui/core"
import { beforeAll, describe, expect, it } from "vitest"
import { messages as compiledEn } from "../../ui/locales/en/messages"
import { messages as compiledFr } from "../../ui/locales/fr/messages"

const root = new URL("../..", import.meta.url).pathname
const LOCALES = ["fr", "en"] as const
const compiled: Record<(typeof LOCALES)[number], Messages> = { fr: compiledFr, en: compiledEn }

let used: ReadonlyArray<string> = []
let sources: Record<string, string> = {}
/** "id «source text»", so a failure names the message to translate. */
const named = (ids: ReadonlyArray<string>) => ids.map((id) => `${id} «${sources[id] ?? ""}»`)
const translations: Record<string, Record<string, string | undefined>> = {}

beforeAll(async () => {
  const config = getConfig({ cwd: root, configPath: `${root}lingui.config.ts` })
  const [catalog] = await getCatalogs(config)
  if (!catalog) throw new Error("no catalog configured in lingui.config.ts")
  // Extract afresh from the sources, so a message added without running `lingui extract` counts.
  const extracted = (await catalog.collect()) ?? {}
  used = Object.keys(extracted)
  sources = Object.fromEntries(Object.entries(extracted).map(([id, entry]) => [id, entry.message ?? id]))
  for (const locale of LOCALES) {
    const read = (await catalog.read(locale)) ?? {}
    translations[locale] = Object.fromEntries(Object.entries(read).map(([id, entry]) => [id, entry.translation]))
  }
}, 60_000)

describe("UI message catalogs", () => {
  it("finds the UI's messages", () => {
    expect(used.length).toBeGreaterThan(50)
  })

  for (const locale of LOCALES) {
    it(`has a non-empty ${locale} translation for every message in the .po file`, () => {
      const missing = used.filter((id) => !translations[locale]?.[id]?.trim())
      expect(named(missing), `run \`npx lingui extract\` and translate ui/locales/${locale}/messages.po`).toEqual([])
    })

    it(`ships every message in the compiled ${locale} catalog`, () => {
      const isEmpty = (value: unknown) => value === undefined || value === "" || (Array.isArray(value) && value.length === 0)
      const missing = used.filter((id) => isEmpty(compiled[locale][id]))
      expect(named(missing), "run `npx lingui compile --typescript --strict`").toEqual([])
    })
  }

  it("has no English text equal to a long French source by mistake", () => {
    // A copied French sentence in the English catalog is a missing translation in disguise.
    const suspicious = used.filter((id) => {
      const fr = translations.fr?.[id] ?? ""
      // A plural message counts by its longest form ("# participants" reads the same in both languages).
      const forms = [...fr.matchAll(/(?:one|other|few|many|=\d+) \{((?:[^{}]|\{\w+\})*)\}/g)].map((f) => f[1]!.length)
      const length = fr.includes(", plural,") && forms.length > 0 ? Math.max(...forms) : fr.length
      return length > 25 && translations.en?.[id] === fr
    })
    expect(named(suspicious)).toEqual([])
  })
})
