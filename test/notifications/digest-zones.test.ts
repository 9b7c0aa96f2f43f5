// A digest lists when each item came in its recipient's zone (their preferences' zone), named, in their
// language (issue 12: every mail gives times in its recipient's zone), and is signed with the brand.
import { describe, expect, it } from "vitest"
import { digestMail } from "../../src/modules/notifications/domain"
import type { DigestItem } from "../../src/modules/notifications/ports"

const plain = (text: string) => text.replace(/[\u2009\u202f\u00a0]/g, " ")
const item: DigestItem = {
  id: "i1",
  userId: "u1",
  kind: "booking",
  subject: "Réservation confirmée",
  body: "Votre réservation est confirmée.",
  link: "https://example.com/bookings",
  createdAt: new Date("2026-11-29T20:00:00Z")
}
const links = { home: "https://example.com", settings: "https://example.com/settings" }
/** The digest of `item` for Léa, reading `language` in `zone`, signed "Atelier Test". */
const digestFor = (language: "fr" | "en", zone: string) =>
  digestMail(
    { email: "a@example.com", firstName: language === "fr" ? "Léa" : "Lea", preferredLanguage: language },
    [item],
    links,
    zone,
    "Atelier Test"
  )

describe("digest times", () => {
  it("in French, in Paris", () => {
    const mail = digestFor("fr", "Europe/Paris")
    expect(plain(mail.text)).toContain("(29 nov. 2026, 21:00, heure de Paris)")
    expect(plain(mail.html)).toContain("heure de Paris")
    // Signed with the brand's name it is given (SITE_NAME), in text and HTML.
    expect(mail.text.endsWith("\n-- \nAtelier Test — Montréal\n")).toBe(true)
    expect(mail.html.endsWith(">Atelier Test — Montréal</p></body></html>")).toBe(true)
  })

  it("in English, in Toronto", () => {
    const mail = digestFor("en", "America/Toronto")
    expect(plain(mail.text)).toContain("(Nov 29, 2026, 3:00 PM, Toronto time)")
    expect(mail.text.endsWith("\n-- \nAtelier Test — Montreal\n")).toBe(true)
    expect(mail.html.endsWith(">Atelier Test — Montreal</p></body></html>")).toBe(true)
  })
})
