import type { Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import { newClient, type Session } from "../support/accounts"
import { hasChromium, loaded } from "../support/browser"
import { browserJourney, closeWithoutErrors } from "../support/journey"
import { bookingIn, providerWithPayouts, serviceOf } from "../support/scenarios"

// Issue 16, item 4: the unread-messages badge of the navigation, live; the account's language on
// every device (and on the sandbox's checkout page); the calendar's month cells and phone views.

const HOUR = 3_600_000

const desktopNav = (page: Page) => page.locator("nav.nav-desktop")

describe.skipIf(!hasChromium)("navigation and language in Chromium", () => {
  const journey = browserJourney()

  it("the unread badge appears live when the other sends, in both languages and in the mobile menu, and clears when read", async () => {
    const { server, api: http, loggedInPage } = journey
    const amelie = await newClient(server, http, { firstName: "Amélie", lastName: "Tremblay" })
    const brian = await newClient(server, http, { firstName: "Brian", lastName: "Walker" })
    expect((await http.patch("/api/users/me", { preferredLanguage: "en" }, { token: brian.token })).status).toBe(200)

    const french = await loggedInPage(amelie, "fr-FR")
    const fr = french.page
    // Through the English login screen (an English browser).
    const english = await loggedInPage(brian, "en-US")
    const en = english.page
    // Nothing unread: the links carry no count.
    await desktopNav(fr).getByRole("link", { name: "Messagerie", exact: true }).waitFor()
    await desktopNav(en).getByRole("link", { name: "Messaging", exact: true }).waitFor()

    // Brian writes three messages (through the API, as another device would): Amélie's badge counts them live.
    const started = await http.post("/api/conversations", { participantId: amelie.id }, { token: brian.token })
    expect(started.status, started.text).toBe(201)
    const conversationId = started.body.data.conversation.id as string
    const send = async (from: Session, content: string) =>
      expect((await http.post(`/api/conversations/${conversationId}/messages`, { content }, { token: from.token })).status).toBe(201)
    for (const content of ["Hello!", "Are you free on Saturday?", "Let me know."]) await send(brian, content)
    const frLink = desktopNav(fr).getByRole("link", { name: "Messagerie 3 messages non lus", exact: true })
    await frLink.waitFor()
    expect(await frLink.locator(".unread-badge [aria-hidden=true]").innerText()).toBe("3")

    // Amélie answers once: Brian's English badge says so, in the singular.
    await send(amelie, "Bonjour, oui samedi me va.")
    await desktopNav(en).getByRole("link", { name: "Messaging 1 unread message", exact: true }).waitFor()

    // On a phone: the menu button carries the count, and so does the link in the menu.
    await fr.setViewportSize({ width: 375, height: 800 })
    const toggle = fr.getByRole("button", { name: "Menu 3 messages non lus", exact: true })
    await toggle.click()
    await fr.getByRole("dialog", { name: "Menu" }).getByRole("link", { name: "Messagerie 3 messages non lus", exact: true }).waitFor()
    await fr.keyboard.press("Escape")
    await fr.setViewportSize({ width: 1280, height: 900 })

    // Amélie opens the conversation (from the link, same page: the link stays up): read at once, the badge goes.
    await frLink.click()
    await fr.waitForURL("**/messaging")
    await fr.getByRole("button", { name: "Brian Walker" }).click()
    await fr.getByRole("dialog", { name: "Brian Walker" }).getByText("Let me know.").waitFor()
    await desktopNav(fr).getByRole("link", { name: "Messagerie", exact: true }).waitFor()
    expect(await desktopNav(fr).locator(".unread-badge").count()).toBe(0)

    // Brian reads on another device (the API): his badge clears live too.
    expect((await http.patch(`/api/conversations/${conversationId}/read`, undefined, { token: brian.token })).status).toBe(200)
    await desktopNav(en).getByRole("link", { name: "Messaging", exact: true }).waitFor()
    expect(await desktopNav(en).locator(".unread-badge").count()).toBe(0)

    await closeWithoutErrors(french, english)
  }, 120_000)

  it("an English account logging in from a fresh French browser gets English, after a reload too, and an English checkout page", async () => {
    const { server, api: http, loggedInPage } = journey
    // An unpaid booking four days ahead: its checkout is opened below.
    const { client, bookingId } = await bookingIn(server, "pending", {
      service: { title: "Cours de piano", description: "Une heure de piano à domicile.", price: 50 },
      startsInHours: 4 * 24,
      address: "1200 rue Sainte-Catherine, Montréal"
    })
    expect((await http.patch("/api/users/me", { preferredLanguage: "en" }, { token: client.token })).status).toBe(200)

    // The French screen, as this browser asks for; the account says English.
    const signedIn = await loggedInPage(client, "fr-FR")
    const { page } = signedIn
    await desktopNav(page).getByRole("link", { name: "Bookings", exact: true }).waitFor()
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("en")
    expect(await page.evaluate(() => localStorage.getItem("lang"))).toBe("en")

    // Session restore: this device's stored choice says French, the account still wins.
    await page.evaluate(() => {
      localStorage.setItem("lang", "fr")
      document.cookie = "lang=fr; Path=/"
    })
    await page.reload()
    await desktopNav(page).getByRole("link", { name: "Bookings", exact: true }).waitFor()
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("en")

    // The sandbox's hosted checkout, opened in this French browser, speaks the account's language.
    const session = await http.post("/api/payments/checkout/session", { bookingId }, { token: client.token })
    expect(session.status, session.text).toBe(200)
    await page.goto(session.body.data.url)
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("en")
    await page.getByRole("button", { name: /^Pay / }).waitFor()
    await closeWithoutErrors(signedIn)
  }, 120_000)

  it("the month view shows two lines per event and '+N more' on a full day; week and day views fit a 375 px screen", async () => {
    const { server, base, api: http, loggedInPage } = journey
    const title = "Taille de haie et ramassage des feuilles mortes au fond du jardin"
    const provider = await providerWithPayouts(server)
    const client = await newClient(server, http)
    const serviceId = await serviceOf(server, provider, { title, description: "Entretien du jardin." })
    expect((await http.patch("/api/users/me", { timeZone: "Europe/Paris" }, { token: provider.token })).status).toBe(200)
    // Five bookings on one day, 08:00 to 15:00 UTC: the same day in Paris.
    const inTwoDays = new Date(Date.now() + 2 * 24 * HOUR)
    const midnight = Date.UTC(inTwoDays.getUTCFullYear(), inTwoDays.getUTCMonth(), inTwoDays.getUTCDate())
    const day = new Date(midnight + 8 * HOUR)
    // Paid: unpaid requests stay off the calendar.
    for (const hour of [8, 9.5, 11, 12.5, 14])
      await bookingIn(server, "paid", {
        provider,
        client,
        serviceId,
        start: new Date(midnight + hour * HOUR),
        address: "1 rue du Parc, Montréal"
      })
    const dayLabel = new Intl.DateTimeFormat("fr", { dateStyle: "full", timeZone: "Europe/Paris" }).format(day)
    const sameMonth = (a: Date, b: Date) =>
      new Intl.DateTimeFormat("en", { month: "numeric", timeZone: "Europe/Paris" }).format(a) ===
      new Intl.DateTimeFormat("en", { month: "numeric", timeZone: "Europe/Paris" }).format(b)

    const signedIn = await loggedInPage(provider, "fr-FR", { timezoneId: "Europe/Paris" })
    const { page } = signedIn
    await page.goto(`${base}/provider/calendar`)
    await loaded(page)
    if (!sameMonth(day, new Date())) await page.getByRole("button", { name: "Période suivante" }).click()
    const cell = page.locator("td.month-cell", { has: page.getByRole("button", { name: `Voir la journée du ${dayLabel}` }) })
    await cell.locator(".calendar-event").first().waitFor()

    // Two events, each on two lines: the whole time on the first, the title cut with an ellipsis on the second.
    const events = cell.locator(".calendar-event")
    expect(await events.count()).toBe(2)
    for (const event of await events.all()) {
      const shape = await event.evaluate((button: HTMLElement) => {
        const time = button.querySelector<HTMLElement>(".event-time")!
        const titleLine = button.querySelector<HTMLElement>(".event-title")!
        const t = time.getBoundingClientRect()
        const l = titleLine.getBoundingClientRect()
        return {
          titleBelowTime: l.top >= t.bottom - 1,
          timeWhole: time.scrollWidth <= time.clientWidth + 1,
          timeText: time.innerText,
          titleCut: titleLine.scrollWidth > titleLine.clientWidth,
          ellipsis: getComputedStyle(titleLine).textOverflow,
          tooltip: button.title
        }
      })
      expect(shape.titleBelowTime).toBe(true)
      expect(shape.timeWhole).toBe(true)
      expect(shape.timeText).toMatch(/^\d\d:\d\d/)
      expect(shape.titleCut).toBe(true)
      expect(shape.ellipsis).toBe("ellipsis")
      expect(shape.tooltip).toContain(title)
    }
    // The full text is the button's name.
    expect(await cell.getByRole("button", { name: new RegExp(`^09:00–10:00 ${title}`) }).count()).toBe(1)
    // The other three: "+3 autres", which opens the day.
    await cell.getByRole("button", { name: `+3 autres : ${dayLabel}` }).click()
    await page.getByRole("heading", { name: dayLabel, exact: false }).first().waitFor()
    expect(await page.locator(".day-event").count()).toBe(5)
    await page.getByRole("button", { name: "Mois", exact: true }).click()
    await page.getByRole("button", { name: "English" }).click()
    await page.getByRole("button", { name: /^\+3 more/ }).waitFor()

    // A phone: the week scrolls inside its grid only; the page never sideways.
    await page.getByRole("button", { name: "Français" }).click()
    await page.setViewportSize({ width: 375, height: 800 })
    for (const view of ["Semaine", "Jour"]) {
      await page.getByRole("button", { name: view, exact: true }).click()
      await page.locator(".time-grid").waitFor()
      const widths = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        viewport: document.documentElement.clientWidth,
        axisSticky: getComputedStyle(document.querySelector(".time-axis")!).position
      }))
      expect(widths.page, view).toBeLessThanOrEqual(widths.viewport)
      expect(widths.axisSticky).toBe("sticky")
      // The start time of every event shows whole (a narrow column drops the end, not the start).
      await page.locator(".day-event .event-time").first().waitFor()
      const cut = await page
        .locator(".day-event .event-time")
        .evaluateAll((times) => times.filter((time) => time.scrollWidth > time.clientWidth + 1).map((time) => time.textContent))
      expect(cut, view).toEqual([])
    }
    await closeWithoutErrors(signedIn)
  }, 120_000)
})
