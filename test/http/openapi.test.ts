import { beforeAll, describe, expect, it } from "vitest"
import { newClient } from "../support/accounts"
import type { Reply } from "../support/http"
import { httpWorld } from "../support/world"

/**
 * The OpenAPI document (/api/docs) describes the error answers the API sends: the one error envelope
 * of platform/http/middleware.ts, `{ success: false, code, message, details? }`, and not the
 * application errors' own fields (`_tag`, `key`, `params`) nor HttpApi's decode error (`issues`).
 */
const { server, api } = httpWorld()
let doc: any
beforeAll(async () => {
  doc = (await api.get("/api/docs")).body
})

const resolve = (schema: any): any => (schema?.$ref ? resolve(doc.components.schemas[schema.$ref.split("/").at(-1)]) : schema)

/** The documented schemas of an operation's answer with that status (each member of an anyOf). */
const documented = (method: string, path: string, status: number): ReadonlyArray<any> => {
  const response = doc.paths[path]?.[method.toLowerCase()]?.responses?.[String(status)]
  expect(response, `${method} ${path} documents ${status}`).toBeDefined()
  const schema = resolve(response.content["application/json"].schema)
  return (schema.anyOf ?? [schema]).map(resolve)
}

/** The body's keys are the documented ones: every required key present, no key the schema does not list. */
const expectDescribes = (schemas: ReadonlyArray<any>, reply: Reply, where: string) => {
  const keys = Object.keys(reply.body).sort()
  const matching = schemas.filter(
    (schema) =>
      (schema.required as ReadonlyArray<string>).every((key) => keys.includes(key)) &&
      keys.every((key) => Object.hasOwn(schema.properties, key))
  )
  expect(matching.length, `${where}: ${JSON.stringify(reply.body)} against ${JSON.stringify(schemas)}`).toBeGreaterThan(0)
  // The body's details, when sent, are documented field by field too.
  if (reply.body.details !== undefined) {
    const item = resolve(matching[0].properties.details.items)
    for (const detail of reply.body.details) expect(Object.keys(detail).sort(), where).toEqual(Object.keys(item.properties).sort())
  }
}

describe("the OpenAPI document's error answers", () => {
  it("every documented error answer is the envelope: success, code, message, details; never _tag, key, params or issues", () => {
    const seen = new Set<string>()
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, operation] of Object.entries(methods)) {
        for (const [status, response] of Object.entries(operation.responses as Record<string, any>)) {
          if (Number(status) < 400) continue
          for (const schema of documented(method, path, Number(status))) {
            const keys = Object.keys(schema.properties ?? {})
            seen.add(keys.join(","))
            expect(keys, `${method} ${path} ${status}`).toEqual(expect.arrayContaining(["success", "code", "message"]))
            for (const internal of ["_tag", "key", "params", "issues"]) expect(keys, `${method} ${path} ${status}`).not.toContain(internal)
          }
        }
      }
    }
    expect(seen.has("success,code,message,details")).toBe(true)
    expect(Object.keys(doc.components.schemas)).not.toContain("HttpApiDecodeError")
  })

  it("no error is documented as a 500 (the authentication's 401 was listed as 500)", () => {
    const with500 = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, operation]) => operation.responses["500"] !== undefined)
        .map(([method]) => `${method} ${path}`)
    )
    expect(with500).toEqual([])
  })

  it("real error answers have the documented keys: 401, 404, 400 with details, 422 with details", async () => {
    const someone = await newClient(server, api)
    const anonymous = await api.get("/api/bookings/00000000-0000-4000-8000-000000000000")
    expect(anonymous.status).toBe(401)
    expectDescribes(documented("GET", "/api/bookings/{id}", 401), anonymous, "401")

    const unknown = await api.get("/api/bookings/00000000-0000-4000-8000-000000000000", { token: someone.token })
    expect(unknown.status).toBe(404)
    expectDescribes(documented("GET", "/api/bookings/{id}", 404), unknown, "404")

    const malformed = await api.post("/api/auth/login", { email: 5, extra: true })
    expect(malformed.status).toBe(400)
    expect(malformed.body.details.length).toBeGreaterThan(0)
    expectDescribes(documented("POST", "/api/auth/login", 400), malformed, "400")

    const invalid = await api.post(
      "/api/bookings",
      { serviceId: "00000000-0000-4000-8000-000000000000", startTime: "x", endTime: "y", address: "" },
      {
        token: someone.token
      }
    )
    expect(invalid.status).toBe(422)
    expect(invalid.body.details.length).toBeGreaterThan(0)
    expectDescribes(documented("POST", "/api/bookings", 422), invalid, "422")
  })
})
