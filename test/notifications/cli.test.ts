import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { renderDigests, runDigests } from "../../cli/commands/notifications/digest"
import { DigestRepository } from "../../src/modules/notifications/ports"
import { newClient } from "../support/accounts"
import { mailsTo } from "../support/http"
import { httpWorld } from "../support/world"

const { server, api } = httpWorld()

describe("notifications:digest (what the command runs)", () => {
  it("reports what waits, then --now sends the due digest through the service, once", async () => {
    const reader = await newClient(server, api)
    expect(
      (await api.call("PUT", "/api/notifications/preferences", { json: { emailFrequency: "daily" }, token: reader.token })).status
    ).toBe(200)
    await server.run(
      Effect.flatMap(DigestRepository, (digests) =>
        digests.add({
          userId: reader.id,
          kind: "booking",
          subject: "Réservation confirmée",
          body: "Le 12 mars à 14 h.",
          link: "http://localhost/bookings",
          createdAt: new Date(Date.now() - 2 * 86_400_000)
        })
      )
    )

    const report = await server.run(runDigests(false))
    expect(report).toEqual({ pending: { recipients: 1, items: 1, dueItems: 1 } })
    expect(renderDigests(report)).toContain("1 due now")

    const sent = await server.run(runDigests(true))
    expect(sent).toEqual({ sent: { digests: 1, items: 1, suppressed: 0 } })
    expect(renderDigests(sent)).toContain("1 digest(s) sent")
    const digest = (await mailsTo(server, reader.email)).find((m) => m.subject === "Votre résumé : 1 notification")
    expect(digest?.text).toContain("Le 12 mars à 14 h.")
    expect(await server.run(runDigests(true))).toEqual({ sent: { digests: 0, items: 0, suppressed: 0 } })
  })
})
