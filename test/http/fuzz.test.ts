import fc from "fast-check"
import { beforeAll, describe, expect, it } from "vitest"
import { newAdmin, type Session } from "../support/accounts"
import { httpWorld } from "../support/world"

/**
 * Every operation of the OpenAPI document (so every endpoint a later change adds), called with random
 * path parameters, query parameters and JSON bodies, anonymously or as a client, a provider or an
 * administrator: every answer is a well-formed envelope and never a 5xx (httpClient checks both).
 */
const world = httpWorld({
  service: { title: "Réparation de vélos", description: "Réglages et crevaisons.", price: 30 },
  booking: { address: "5 rue Rachel, Montréal" }
})
const { server, api, provider, client, bookedIn } = world
let sessions: ReadonlyArray<Session | undefined>
let known: { readonly serviceId: string; readonly bookingId: string; readonly userId: string }
let operations: ReadonlyArray<Operation>

interface Operation {
  readonly method: string
  readonly path: string
  readonly query: ReadonlyArray<string>
  readonly fields: ReadonlyArray<string>
}

beforeAll(async () => {
  const { bookingId } = await bookedIn("pending")
  known = { serviceId: world.serviceId, bookingId, userId: provider.id }
  sessions = [undefined, client, provider, await newAdmin(server, api)]

  const doc = (await api.get("/api/docs")).body as {
    paths: Record<
      string,
      Record<
        string,
        { parameters?: ReadonlyArray<{ name: string; in: string }>; requestBody?: { content?: Record<string, { schema?: unknown }> } }
      >
    >
    components?: { schemas?: Record<string, unknown> }
  }
  const propertiesOf = (schema: unknown, depth = 0): ReadonlyArray<string> => {
    if (schema === null || typeof schema !== "object" || depth > 4) return []
    const s = schema as {
      $ref?: string
      properties?: Record<string, unknown>
      anyOf?: ReadonlyArray<unknown>
      allOf?: ReadonlyArray<unknown>
    }
    if (s.$ref) return propertiesOf(doc.components?.schemas?.[s.$ref.split("/").at(-1)!], depth + 1)
    return [...Object.keys(s.properties ?? {}), ...[...(s.anyOf ?? []), ...(s.allOf ?? [])].flatMap((x) => propertiesOf(x, depth + 1))]
  }
  operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      query: (op.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name),
      fields: [...new Set(Object.values(op.requestBody?.content ?? {}).flatMap((c) => propertiesOf(c.schema)))]
    }))
  )
  // The document lists every module's endpoints.
  expect(operations.length).toBeGreaterThan(60)
})

const oddText = fc.oneof(
  fc.string(),
  fc.fullUnicodeString({ maxLength: 40 }),
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "-1",
    "0",
    "1e309",
    "NaN",
    "9".repeat(40),
    "true",
    "null",
    "../../etc/passwd",
    "%",
    "a".repeat(5_000),
    "2026-02-30T25:61:00Z",
    "\u001b[31m",
    "a\r\nb",
    `0.${"0".repeat(323)}5`
  )
)
const pathValue = () =>
  fc.oneof(
    fc.constantFrom(
      known.serviceId,
      known.bookingId,
      known.userId,
      "00000000-0000-0000-0000-000000000000",
      "1",
      "abc",
      "..",
      "%2e%2e",
      "x".repeat(300)
    ),
    fc.uuid(),
    fc.integer({ min: -5, max: 1_000_000 }).map(String)
  )
const fieldValue = fc.oneof(
  oddText,
  fc.integer(),
  fc.double(),
  // Numbers PostgreSQL cannot store as JavaScript carries them (issue 10: 500s once).
  fc.constantFrom(5e-324, -5e-324, 1e-7, 2 ** 31, 2 ** 53 + 2, 1e308),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 2 }),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString())
)

describe("every endpoint of the OpenAPI document under random input", () => {
  it("answers a well-formed envelope, never a 5xx (fast-check)", { timeout: 180_000 }, async () => {
    const call = fc
      .record({
        operation: fc.constantFrom(...operations),
        session: fc.constantFrom(...sessions)
      })
      .chain(({ operation, session }) =>
        fc.record({
          operation: fc.constant(operation),
          session: fc.constant(session),
          params: fc.array(pathValue(), { minLength: 4, maxLength: 4 }),
          query: fc.dictionary(fc.constantFrom(...(operation.query.length > 0 ? operation.query : ["page"]), "limit", "x"), oddText, {
            maxKeys: 4
          }),
          body: fc.oneof(
            {
              weight: 3,
              arbitrary: fc.dictionary(fc.constantFrom(...(operation.fields.length > 0 ? operation.fields : ["id"]), "extra"), fieldValue, {
                maxKeys: 8
              })
            },
            { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
            // Deeper than any body may be (a stack overflow once).
            {
              weight: 1,
              arbitrary: fc.integer({ min: 30, max: 3_000 }).map((depth) => JSON.parse("[".repeat(depth) + "]".repeat(depth)) as unknown)
            }
          )
        })
      )
    await fc.assert(
      fc.asyncProperty(call, async ({ operation, session, params, query, body }) => {
        let i = 0
        const path = operation.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(params[i++ % params.length]!))
        const search = new URLSearchParams(query as Record<string, string>).toString()
        const sendsBody = operation.method !== "GET" && operation.method !== "DELETE"
        // httpClient fails the property on any 5xx and on an answer that is not the envelope.
        const reply = await api.call(operation.method, search ? `${path}?${search}` : path, {
          ...(session ? { token: session.token } : {}),
          ...(sendsBody ? { raw: JSON.stringify(body) ?? "null" } : {})
        })
        expect(reply.status).toBeGreaterThanOrEqual(200)
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 600) }
    )
  })
})
