import { describe, expect, it } from "vitest"
import type { BookingDetail, Participant } from "../../src/modules/booking/ports"
import { bookingMail, receiptMail, reminderMail } from "../../src/modules/booking/mails"
import { NotificationEvents } from "../../src/modules/booking/domain"
import { ReportReasons } from "../../src/modules/messaging/rules"
import { composeMail, type OutgoingMail } from "../../src/modules/notifications"
import { actionMail, contactMail, digestMail, withUnsubscribeFooter } from "../../src/modules/notifications/domain"
import { ContactSubjects } from "../../src/modules/notifications/rules"
import { approvalMail, documentRequestedMail, rejectionMail } from "../../src/modules/onboarding/mails"
import { isMessageKey, type Language, type MessageKey, translate } from "../../src/platform/messages"
import { frenchSpacing, rawCodes, sameIsFine } from "../support/strings"

// Issue 16, item 5, for mails: every template in its language (the screens' check is the route walk's,
// test/browser/walk-*.test.ts). Same rules as the screens (test/support/strings.ts).

const person = (language: Language, firstName: string, lastName: string): Participant => ({
  id: `${firstName}-id`,
  firstName,
  lastName,
  email: `${firstName.toLowerCase()}@example.com`,
  phoneNumber: "5145550100",
  preferredLanguage: language,
  timeZone: "America/Toronto"
})

const booking = (language: Language): BookingDetail =>
  ({
    id: "5f0c1a52-7a51-4c5e-9d3c-1e0f1f6b2a11",
    version: 3,
    updatedAt: new Date("2027-03-01T10:00:00Z"),
    startTime: new Date("2027-03-12T18:00:00Z"),
    endTime: new Date("2027-03-12T19:00:00Z"),
    address: "1200 rue Sainte-Catherine, Montréal",
    totalMinor: 9000,
    capturedMinor: 0,
    cancellationFeeMinor: 2500,
    resolvedCaptureMinor: 4500,
    currency: "CAD",
    rejectionReason: "Indisponible ce jour-là",
    service: { id: "s", title: "Grand ménage de printemps", description: "", categoryNameFr: "Ménage", categoryNameEn: "Cleaning" },
    client: person(language, "Lucas", "Bernard"),
    provider: person(language, "Marie", "Dubois"),
    review: null,
    reschedules: [
      {
        startTime: new Date("2027-03-14T18:00:00Z"),
        previousStartTime: new Date("2027-03-12T18:00:00Z"),
        totalMinor: 9000
      }
    ],
    dispute: { note: "Remboursement de la moitié" }
  }) as unknown as BookingDetail

/** Every mail template, rendered with sample data through the modules' composition code, in `language`. */
const allMails = (language: Language): Record<string, OutgoingMail | { subject: string; text: string }> => {
  const brand = { publicUrl: "https://marketplace.example", siteName: "Atelier Test" }
  const url = brand.publicUrl
  const to = { email: "lucas@example.com", firstName: "Lucas", preferredLanguage: language }
  const mails: Record<string, OutgoingMail | { subject: string; text: string }> = {}
  const sample = booking(language)
  for (const event of NotificationEvents)
    for (const side of ["client", "provider"] as const)
      if (isMessageKey(`mail.booking.${event}.${side}`))
        mails[`booking ${event} (${side})`] = bookingMail(event, sample[side], side, sample, brand)
  for (const kind of ["24h", "2h"] as const)
    for (const side of ["client", "provider"] as const)
      mails[`reminder ${kind} (${side})`] = reminderMail(kind, sample[side], side, sample, brand)
  mails.receipt = receiptMail(
    sample,
    { paidMinor: 9000, paidAt: new Date("2027-03-12T20:00:00Z") },
    new Uint8Array([37, 80, 68, 70]),
    brand
  )
  mails["application approved"] = approvalMail(to, brand)
  for (const resubmission of [
    { state: "FINALLY_REFUSED" },
    { state: "COOLDOWN", until: new Date("2027-04-01T12:00:00Z"), daysRemaining: 7 },
    { state: "CAN_RESUBMIT" }
  ] as const)
    mails[`application rejected ${resubmission.state}`] = rejectionMail(
      to,
      { reason: "Pièce d'identité illisible", resubmission, attemptsLeft: 2, timeZone: "Europe/Paris" },
      brand
    )
  mails["document requested"] = documentRequestedMail(to, { slot: "identityDocument", reason: "Photo floue" }, brand)
  for (const name of ["verify", "reset", "emailChange", "emailChanged", "export"] as const)
    mails[name] = actionMail({
      kind: "email-verification",
      to: to.email,
      language,
      firstName: "Lucas",
      link: `${url}/x`,
      keys: {
        subject: `mail.${name}.subject`,
        greeting: `mail.${name}.greeting`,
        body: `mail.${name}.body`,
        action: `mail.${name}.action`
      } as { subject: MessageKey; greeting: MessageKey; body: MessageKey; action: MessageKey },
      siteName: brand.siteName
    })
  for (const subject of ContactSubjects)
    mails[`contact ${subject}`] = contactMail(
      "support@example.com",
      { name: "Lucas Bernard", email: "lucas@example.com", subject, message: "Bonjour" },
      language
    )
  mails.digest = digestMail(
    to,
    [
      {
        id: "1",
        userId: "u",
        kind: "booking",
        subject: "Réservation confirmée",
        body: "Votre réservation",
        link: `${url}/bookings`,
        createdAt: new Date("2027-03-01T10:00:00Z")
      }
    ],
    { home: url, settings: `${url}/settings` },
    "Europe/Paris",
    brand.siteName
  )
  mails["digest (unsubscribe footer)"] = withUnsubscribeFooter(
    mails["application approved"] as OutgoingMail,
    language,
    `${url}/unsubscribe/t`
  )
  for (const reason of ReportReasons)
    mails[`moderation warning ${reason}`] = composeMail(
      "legal",
      to,
      translate(language, "mail.moderationWarning.subject"),
      [
        translate(language, "mail.moderationWarning.body", { reason: translate(language, `moderation.reason.${reason}`) }),
        translate(language, "mail.moderationWarning.note", { note: "Soyez courtois" })
      ],
      { label: translate(language, "mail.moderationWarning.action"), link: `${url}/messaging` },
      brand.siteName
    )
  mails["unsubscribe confirmation"] = composeMail(
    "unsubscribe-confirmation",
    to,
    translate(language, "mail.unsubscribeConfirm.subject"),
    [translate(language, "mail.unsubscribeConfirm.body")],
    { label: translate(language, "mail.unsubscribeConfirm.action"), link: `${url}/unsubscribe/t` },
    brand.siteName
  )
  return mails
}

/** A mail's texts to compare: its subject, then each line of its plain text. */
const mailTexts = (mail: { subject: string; text: string }) => [mail.subject, ...mail.text.split("\n").map((line) => line.trim())]

// What the sample data typed (the same in both languages), and the sample links.
const mailUserContent = [
  "Grand ménage de printemps",
  "1200 rue Sainte-Catherine, Montréal",
  "Indisponible ce jour-là",
  "Remboursement de la moitié",
  "Pièce d'identité illisible",
  "Photo floue",
  "Soyez courtois",
  "Réservation confirmée",
  "Votre réservation",
  "Lucas Bernard",
  "Marie Dubois",
  "Bonjour",
  "Lucas",
  "Marie",
  "--"
]

describe("every mail in its language (issue 16)", () => {
  it("no mail template has a line or subject the same in French and English, nor a raw code", () => {
    const fr = allMails("fr")
    const en = allMails("en")
    const problems: Array<string> = []
    expect(Object.keys(fr).length).toBeGreaterThan(60)
    for (const [name, frMail] of Object.entries(fr)) {
      const enTexts = new Set(mailTexts(en[name]!))
      for (const text of mailTexts(frMail))
        if (text !== "" && enTexts.has(text) && !sameIsFine(text.replace(/https?:\/\/\S+/g, ""), mailUserContent))
          problems.push(`${name}: same in both: "${text}"`)
      for (const [language, mail] of [
        ["fr", frMail],
        ["en", en[name]!]
      ] as const)
        for (const text of mailTexts(mail))
          for (const code of rawCodes(text.replace(/https?:\/\/\S+/g, ""))) problems.push(`${name} (${language}): raw ${code}`)
      for (const text of mailTexts(en[name]!))
        if (frenchSpacing(text, mailUserContent)) problems.push(`${name} (en): French spacing in "${text}"`)
    }
    expect(problems).toEqual([])
  })

  it("the support mail names the contact form's subject in words", () => {
    const mail = contactMail("support@example.com", { name: "Lucas", email: "l@example.com", subject: "technical", message: "Bonjour" })
    expect(mail.subject).toBe("Nouveau message de contact : problème technique")
    expect(mail.text).not.toMatch(/technical|From:|Subject:/)
  })
})
