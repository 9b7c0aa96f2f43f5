import * as fs from "node:fs"
import { describe, expect, it } from "vitest"
import { refundBooking, setBookingStatus } from "../../cli/commands/bookings/shared"
import { hasChromium } from "../support/browser"
import { bookingCard, closeWithoutErrors, serviceJourney } from "../support/journey"
import { pdfText } from "../support/pdf"
import { bookingIn } from "../support/scenarios"

// Receipts and earnings in Chromium (issue 13, item 5): after a capture (and a partial refund), the
// client opens the receipt from the booking card and downloads the PDF, whose figures match the page;
// the provider's earnings page, reached from the navigation, shows the booking's net.

const TITLE = "Cours de guitare à domicile"
/** Intl writes narrow and plain no-break spaces; compare with plain spaces. */
const spaced = (text: string | null) => (text ?? "").replace(/\s/g, " ").trim()

describe.skipIf(!hasChromium)("receipts and earnings in Chromium", () => {
  // 40 € an hour, booked for 2 hours: 80,00 €.
  const journey = serviceJourney(
    { title: TITLE, description: "Cours pour débutants et confirmés.", price: 40, categoryId: 9 },
    { timezoneId: "America/Toronto" }
  )

  it("the client opens the receipt and downloads its PDF (figures match); the provider's earnings show the net", async () => {
    const { server, base, loggedInPage, provider, client, serviceId } = journey
    // A booking paid in the sandbox, validated (80,00 € captured), then refunded 15,00 €.
    const { bookingId: id } = await bookingIn(server, "paid", { provider, client, serviceId, startsInHours: 30, hours: 2 })
    await server.run(setBookingStatus(id, "CONFIRMED", undefined))
    expect(await server.run(setBookingStatus(id, "VALIDATED", undefined))).toMatchObject({ capturedMinor: 8000 })
    await server.run(refundBooking(id, 1500, "Geste commercial"))
    // The client's profile gives a postal address: the receipt prints it under their name.
    const postal = { address: "45 rue King Ouest", postalCode: "M5H 1J8", city: "Toronto", country: "Canada" }
    expect((await journey.api.patch("/api/users/me", postal, { token: client.token })).status).toBe(200)

    // ---- The client: booking card → receipt → PDF ----
    const asClient = await loggedInPage(client, "fr-CA")
    let page = asClient.page
    await page.goto(`${base}/bookings`)
    await bookingCard(page, TITLE).getByRole("link", { name: /^Reçu/ }).click()
    await page.waitForURL(`**/bookings/${id}/receipt`)
    await page.getByRole("heading", { name: "Reçu de paiement" }).waitFor()
    const paid = spaced(await page.getByTestId("receipt-paid").textContent())
    const net = spaced(await page.getByTestId("receipt-net").textContent())
    expect(paid).toMatch(/^80,00 €$/)
    expect(net).toMatch(/^65,00 €$/)
    await page.getByText(TITLE).waitFor()
    expect(spaced(await page.getByTestId("receipt-client").textContent())).toContain("45 rue King Ouest, M5H 1J8 Toronto, Canada")

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Télécharger le PDF" }).click()])
    expect(download.suggestedFilename()).toMatch(/^recu-.+\.pdf$/)
    const bytes = new Uint8Array(fs.readFileSync((await download.path())!))
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe("%PDF-")
    const text = pdfText(bytes).map(spaced)
    // The PDF's figures are the page's: paid, the refund, what was paid in the end.
    expect(text).toContain(paid)
    expect(text).toContain(net)
    expect(text.some((line) => /^-\s?15,00 €$/.test(line))).toBe(true)
    expect(text).toContain(TITLE)

    // ---- The provider: navigation → earnings, the booking's net ----
    const asProvider = await loggedInPage(provider, "fr-CA")
    page = asProvider.page
    await page.getByRole("link", { name: "Revenus" }).first().click()
    await page.waitForURL("**/provider/earnings")
    await page.getByRole("heading", { name: "Revenus" }).waitFor()
    // Kept 65,00 €: commission 3,25 €, net 61,75 €.
    const row = page.locator(`tr[data-booking-id="${id}"]`)
    await row.waitFor()
    expect(spaced(await row.getByTestId("earning-net").textContent())).toBe("61,75 €")
    expect(spaced(await page.getByTestId("earnings-net-EUR").textContent())).toBe("61,75 €")
    await row.getByText("Remboursé en partie").waitFor()
    // The provider's receipt of the booking (from its card): the same figures, the platform's 5 % and their net.
    await page.goto(`${base}/bookings`)
    await bookingCard(page, TITLE).getByRole("link", { name: /^Reçu/ }).click()
    await page.waitForURL(`**/bookings/${id}/receipt`)
    expect(spaced(await page.getByTestId("receipt-commission").textContent())).toBe("-3,25 €")
    expect(spaced(await page.getByTestId("receipt-provider-net").textContent())).toBe("61,75 €")
    await page.getByText("Commission de la plateforme (5 %)").waitFor()

    await closeWithoutErrors(asClient, asProvider)
  }, 120_000)
})
