// The design system in Chromium (issue 16): the back-office's lists are stacked labelled rows on a
// phone (no sideways scroll, status and actions in view) in both languages; the document verdict is a
// segmented control found by its labels; a heading focused after a click navigation shows no ring;
// the brand's name (SITE_NAME) is in the header and the title.
import type { Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import { applicationForm, submit } from "../onboarding/support"
import { newClient } from "../support/accounts"
import { hasChromium, loaded, seriousViolations } from "../support/browser"
import { browserJourney, demoAccounts } from "../support/journey"

const SITE = "Atelier Essai"

/** Lists of the back-office, with the status column's name in each language when the list has one. */
const LISTS: ReadonlyArray<{ path: string; status?: { fr: string; en: string } }> = [
  { path: "/admin/bookings", status: { fr: "Statut", en: "Status" } },
  { path: "/admin/services", status: { fr: "Statut", en: "Status" } },
  { path: "/admin/applications", status: { fr: "Statut", en: "Status" } },
  { path: "/admin/users", status: { fr: "Statut", en: "Status" } },
  { path: "/admin/reports", status: { fr: "Statut", en: "Status" } },
  { path: "/admin/audit" },
  { path: "/admin/financial", status: { fr: "Statut", en: "Status" } }
]

/** What the page shows of its tables at this width: sideways overflow, and for each row whether its status and actions are in view. */
const layout = (page: Page, statusLabel: string | undefined) =>
  page.evaluate((label) => {
    const inView = (element: Element | null) => {
      if (!element) return false
      const box = element.getBoundingClientRect()
      return box.width > 0 && box.height > 0 && box.left >= 0 && box.right <= window.innerWidth
    }
    const rows = Array.from(document.querySelectorAll(".data-table tbody tr"))
    return {
      overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      tables: document.querySelectorAll(".data-table").length,
      rows: rows.length,
      statusShown: rows.filter((row) => label === null || inView(row.querySelector(`td[data-label="${label}"] .badge`))).length,
      actionsShown: rows.filter((row) => {
        const cell = row.querySelector('td[data-label=""]')
        return cell === null || inView(cell.querySelector("a, button"))
      }).length,
      labelled: rows.every((row) => Array.from(row.querySelectorAll("td")).every((td) => td.hasAttribute("data-label")))
    }
  }, statusLabel ?? null)

describe.skipIf(!hasChromium)("the design system in Chromium", () => {
  const journey = browserJourney({ config: { siteName: SITE } })

  /** A new client's application to become a provider, and the admin logged in on a phone's width. */
  const applicantAndAdmin = async () => {
    const { server, api, loggedInPage } = journey
    const applicant = await newClient(server, api)
    expect((await submit(server, applicant.token, await applicationForm())).status).toBe(201)
    const { context, page } = await loggedInPage(demoAccounts.admin, "fr-FR", { viewport: { width: 375, height: 800 } })
    return { applicant, context, page }
  }

  it("every admin list at 375 px: no sideways scroll, each row's status and actions in view, in French and English", async () => {
    const { base } = journey
    // An application, so that the applications list has a row.
    const { applicant, context, page } = await applicantAndAdmin()
    const problems: Array<string> = []
    let seen = 0
    for (const language of ["fr", "en"] as const) {
      for (const list of LISTS) {
        await page.goto(`${base}${list.path}?lang=${language}`)
        await page.locator("h1").first().waitFor()
        await loaded(page)
        await page.locator(".data-table, .empty-state").first().waitFor()
        const found = await layout(page, list.status?.[language])
        const where = `${list.path} (${language})`
        if (found.overflow > 0) problems.push(`${where}: ${found.overflow} px sideways`)
        if (!found.labelled) problems.push(`${where}: a cell without its column's label`)
        if (found.statusShown !== found.rows) problems.push(`${where}: status out of view on ${found.rows - found.statusShown} rows`)
        if (found.actionsShown !== found.rows) problems.push(`${where}: actions out of view on ${found.rows - found.actionsShown} rows`)
        seen += found.rows
      }
    }
    expect(problems).toEqual([])
    // The seed's bookings, services, users, payments and the new application: the check saw rows.
    expect(seen).toBeGreaterThan(20)

    // A user's actions open from the row's menu, on screen at this width.
    await page.goto(`${base}/admin/users?lang=fr`)
    await page.getByLabel("Rechercher un utilisateur").fill(applicant.email)
    await page.getByRole("button", { name: "Rechercher" }).click()
    const row = page.getByRole("row").filter({ hasText: applicant.email })
    await row.getByRole("button", { name: /^Actions : / }).click()
    const deactivate = page.getByRole("button", { name: /^Désactiver : / })
    await deactivate.waitFor()
    const box = (await deactivate.boundingBox())!
    expect(box.x).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width).toBeLessThanOrEqual(375)
    // The stacked rows and the open menu pass axe-core.
    expect(await seriousViolations(page)).toEqual([])
    await page.keyboard.press("Escape")
    await deactivate.waitFor({ state: "hidden" })
    await context.close()
  }, 120_000)

  it("the document verdict is a segmented control chosen by its labels", async () => {
    const { base } = journey
    const { applicant, context, page } = await applicantAndAdmin()
    await page.goto(`${base}/admin/applications`)
    await page.getByLabel("Rechercher un candidat").fill(applicant.email)
    await page.getByRole("button", { name: "Rechercher" }).click()
    await page.getByRole("row").filter({ hasText: applicant.email }).getByRole("link", { name: /Voir/ }).click()
    const document = page.locator("li.document").first()
    const group = document.getByRole("group", { name: /^Vérification : / })
    await group.waitFor()
    expect(await group.getByRole("radio").count()).toBe(3)
    expect(await group.getByRole("radio", { name: "En attente" }).isChecked()).toBe(true)
    // Clicking the words of an option checks that option (each radio sits inside its label).
    await group.locator("label", { hasText: "Rejeté" }).click()
    expect(await group.getByRole("radio", { name: "Rejeté" }).isChecked()).toBe(true)
    await group.getByRole("radio", { name: "Vérifié" }).check()
    expect(await group.getByRole("radio", { name: "Rejeté" }).isChecked()).toBe(false)
    await document.getByRole("button", { name: /Enregistrer la vérification/ }).click()
    await document.locator("strong", { hasText: "Vérifié" }).waitFor()
    // Each option's box holds its radio: the label's box is where its radio is.
    const options = await group.locator(".segmented-option").evaluateAll((labels) =>
      labels.map((label) => {
        const outer = label.getBoundingClientRect()
        const inner = label.querySelector("input")!.getBoundingClientRect()
        return (
          inner.left >= outer.left - 1 && inner.right <= outer.right + 1 && inner.top >= outer.top - 1 && inner.bottom <= outer.bottom + 1
        )
      })
    )
    expect(options).toEqual([true, true, true])
    await context.close()
  }, 90_000)

  it("the brand in the header and the title; no ring around a heading focused after a click", async () => {
    const { base, newPage } = journey
    const { context, page } = await newPage("fr-FR", { viewport: { width: 1280, height: 900 } })
    await page.goto(`${base}/services`)
    await page.locator("h1").first().waitFor()
    await expect.poll(() => page.title()).toBe(`Services · ${SITE}`)
    expect(await page.locator(".site-header .brand").innerText()).toBe(SITE)
    expect(await page.locator(".site-header .brand svg").count()).toBe(1)
    expect(await page.locator('meta[property="og:site_name"]').getAttribute("content")).toBe(SITE)

    await page.locator(".site-footer").getByRole("link", { name: "À propos" }).click()
    const heading = page.locator("h1").first()
    await expect.poll(() => heading.evaluate((h) => document.activeElement === h)).toBe(true)
    expect(await heading.evaluate((h) => getComputedStyle(h).outlineStyle)).toBe("none")
    expect(await page.title()).toMatch(new RegExp(` · ${SITE}$`))
    // A keyboard user still sees where focus is on controls.
    await page.keyboard.press("Tab")
    const ring = await page.evaluate(() => {
      const active = document.activeElement as HTMLElement
      return active.matches(":focus-visible") ? getComputedStyle(active).outlineStyle : "none"
    })
    expect(ring).toBe("solid")
    await context.close()
  }, 60_000)
})
