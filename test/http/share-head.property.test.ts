import * as fs from "node:fs"
import * as path from "node:path"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { withShareHead } from "../../src/app/share-pages"
import { brandIndex } from "../../src/platform/http/static"

// What people type into a title or a site name lands in the HTML as typed (issue 23, item 13): `$'`,
// `` $` `` and `$&` are patterns to String.prototype.replace when the replacement is a string.

const indexHtml = fs.readFileSync(path.resolve(import.meta.dirname, "../../ui/index.html"), "utf8")
const unescapeHtml = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[name]!)
const between = (html: string, open: string, close: string) => html.slice(html.indexOf(open) + open.length, html.indexOf(close))
/** Text rich in replacement patterns: `$'`, `` $` ``, `$&`, `$1`, `$<name>` among letters. */
const typed = fc.string({ unit: fc.constantFrom("$", "'", "`", "&", "<", "1", "a", " ", "é", "ễ"), minLength: 1 })

describe("share heads and the site's name keep what was typed", () => {
  it("a service title with replacement patterns is the page's title, and the page after it is untouched", () =>
    fc.assert(
      fc.property(typed, typed, (title, description) => {
        const html = withShareHead(indexHtml, {
          title,
          description,
          url: "https://example.test/services/1",
          type: "product",
          language: "en",
          siteName: "Proxima"
        })
        expect(unescapeHtml(between(html, "<title>", "</title>"))).toBe(title)
        expect(html.slice(html.indexOf('<meta name="application-name"'))).toBe(
          indexHtml.slice(indexHtml.indexOf('<meta name="application-name"'))
        )
        expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true)
      })
    ))

  it("a site name with replacement patterns fills every placeholder as typed", () => {
    const html = brandIndex(indexHtml, { siteName: "L'$&atelier $` $'", publicUrl: "https://example.test" })
    expect(between(html, "<title>", "</title>")).toBe("L&#39;$&amp;atelier $` $&#39;")
    expect(html).not.toContain("%SITE_NAME%")
    expect(html.match(/\$&amp;atelier/g)).toHaveLength(3)
  })
})
