import { describe, expect, it } from "vitest"
import { approveApplication, listApplications, rejectApplication, renderDecision, renderList } from "../../cli/commands/applications/shared"
import { freshUser } from "../support/accounts"
import { cliBuiltWith } from "../support/cli"
import { mailsTo } from "../support/http"
import { cliWorld } from "../support/world"
import { applicationForm, submit } from "./support"

const { server, api, cli, failureCode } = cliWorld()

const applicant = async () => {
  const person = await freshUser(server, api, "CLIENT", { firstName: "Cli" })
  const reply = await submit(server, person.token, await applicationForm())
  expect(reply.status, reply.text).toBe(201)
  return { ...person, id: reply.body.data.application.id as string }
}

describe("applications:* as Effects (what the commands run)", () => {
  it("list filters and paginates; approve and reject decide as an operator; typed failures", async () => {
    const a = await applicant()
    const b = await applicant()
    const list = await server.run(listApplications({ status: "pending", search: a.email }))
    expect(list.pagination).toEqual({ total: 1, page: 1, limit: 20, pages: 1 })
    expect(list.applications[0]).toMatchObject({ id: a.id, status: "PENDING", user: { email: a.email } })
    expect(renderList(list)).toContain(a.email)
    expect(renderList({ applications: [], pagination: { total: 0, page: 1, limit: 20, pages: 0 } })).toBe("No application.")

    const approved = await server.run(approveApplication(a.id))
    expect(approved).toMatchObject({ id: a.id, status: "APPROVED", user: { email: a.email, role: "PROVIDER" } })
    expect(renderDecision("approved", approved)).toContain("role PROVIDER")
    const rejected = await server.run(rejectApplication(b.id, "Documents illisibles"))
    expect(rejected).toMatchObject({ status: "REJECTED", rejectionReason: "Documents illisibles", rejectionCount: 1 })
    expect(renderDecision("rejected", rejected)).toContain("Reason: Documents illisibles")
    expect((await mailsTo(server, b.email))[0]!.text).toContain("Documents illisibles")

    expect(await failureCode(rejectApplication(a.id, "x"))).toBe("APPLICATION_NOT_PENDING")
    expect(await failureCode(rejectApplication(b.id, "  "))).toBe("VALIDATION_ERROR")
    expect(await failureCode(approveApplication("nope"))).toBe("APPLICATION_NOT_FOUND")
    expect(await failureCode(listApplications({ status: "LOST" }))).toBe("VALIDATION_ERROR")
  })
})

const built = cliBuiltWith("applications:list")

describe.skipIf(!built)("bin/run applications:list | approve | reject (spawned, same database)", () => {
  it("lists as JSON, approves and rejects by id; refusals exit with code 3 and a clear message", async () => {
    const a = await applicant()
    const b = await applicant()
    const listed = await cli("applications:list", "--status", "PENDING", "--search", a.email, "--json")
    expect(listed.status, listed.stderr).toBe(0)
    const json = JSON.parse(listed.stdout)
    expect(json.pagination.total).toBe(1)
    expect(json.applications[0]).toMatchObject({ id: a.id, status: "PENDING", user: { email: a.email } })
    const text = await cli("applications:list", "--search", a.email)
    expect(text.stdout).toContain("1 application(s)")

    const approved = await cli("applications:approve", a.id, "--json")
    expect(approved.status, approved.stderr).toBe(0)
    expect(JSON.parse(approved.stdout).application).toMatchObject({ id: a.id, status: "APPROVED", user: { role: "PROVIDER" } })
    expect((await api.get("/api/auth/me", { token: a.token })).body.data.user.role).toBe("PROVIDER")

    const rejected = await cli("applications:reject", b.id, "--reason", "Pièce d'identité expirée", "--json")
    expect(rejected.status, rejected.stderr).toBe(0)
    expect(JSON.parse(rejected.stdout).application).toMatchObject({ status: "REJECTED", rejectionReason: "Pièce d'identité expirée" })

    const again = await cli("applications:approve", a.id)
    expect(again.status).toBe(3)
    expect(again.stderr).toContain("APPLICATION_NOT_PENDING")
    const noReason = await cli("applications:reject", b.id)
    expect(noReason.status).not.toBe(0)
    expect(noReason.stderr).toMatch(/reason/i)
  }, 120_000)
})
