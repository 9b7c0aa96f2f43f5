import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { en, fr } from "../../src/platform/messages"
import { login, newClient, type Session } from "../support/accounts"
import { httpClient } from "../support/http"
import { startTestServer, type TestServer } from "../support/server"

// Reports de-duplicated per target (issue 23, item 13): the same person reporting the same profile
// or message again, while the first report waits for a decision, filed a second one each time (and
// spent a report of their day).

let server: TestServer
let api: ReturnType<typeof httpClient>
let admin: Session
beforeAll(async () => {
  server = await startTestServer()
  api = httpClient(server)
  admin = await login(api, "admin@marketplace.local", "Admin1234!")
})
afterAll(() => server?.stop())

const reportProfile = (reporter: Session, userId: string, language: "fr" | "en" = "fr") =>
  api.post("/api/reports", { reason: "SPAM", userId }, { token: reporter.token, language })
/** The open reports `reporter` filed about `userId`, as the moderation queue lists them. */
const openReportsOf = async (reporter: Session, userId: string) => {
  const queue = await api.get("/api/admin/reports?status=open&limit=100", { token: admin.token })
  return (queue.body.data.reports as ReadonlyArray<{ id: string; reporter: { id: string }; reportedUser: { id: string } }>).filter(
    (r) => r.reporter.id === reporter.id && r.reportedUser.id === userId
  )
}

describe("reporting the same thing twice", () => {
  it("answers the open report with its own message in both languages, and the queue holds one", async () => {
    const reporter = await newClient(server, api)
    const reported = await newClient(server, api)
    const first = await reportProfile(reporter, reported.id)
    expect(first.status, first.text).toBe(201)
    expect(first.body.message).toBe(fr["moderation.reportReceived"])
    for (const [language, catalog] of [
      ["fr", fr],
      ["en", en]
    ] as const) {
      const again = await reportProfile(reporter, reported.id, language)
      expect(again.status, again.text).toBe(201)
      expect(again.body.data.report.id).toBe(first.body.data.report.id)
      expect(again.body.message).toBe(catalog["moderation.alreadyReported"])
    }
    expect(await openReportsOf(reporter, reported.id)).toHaveLength(1)
  })

  it("files one report for two requests sent at once, and a new one once the first is decided", async () => {
    const reporter = await newClient(server, api)
    const reported = await newClient(server, api)
    const twins = await Promise.all([reportProfile(reporter, reported.id), reportProfile(reporter, reported.id)])
    expect(twins.map((r) => r.status)).toEqual([201, 201])
    expect(twins[0]!.body.data.report.id).toBe(twins[1]!.body.data.report.id)
    const [open] = await openReportsOf(reporter, reported.id)
    const decided = await api.post(`/api/admin/reports/${open!.id}/decision`, { action: "DISMISS" }, { token: admin.token })
    expect(decided.status, decided.text).toBe(200)
    const later = await reportProfile(reporter, reported.id)
    expect(later.body.data.report.id).not.toBe(open!.id)
    expect(later.body.message).toBe(fr["moderation.reportReceived"])
  })
})
