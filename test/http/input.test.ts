import { beforeAll, describe, expect, it } from "vitest"
import { MAX_JSON_BODY_BYTES, MAX_JSON_DEPTH } from "../../src/platform/http/body"
import { en, fr } from "../../src/platform/messages"
import { newAdmin, newClient, type Session } from "../support/accounts"
import { expectError } from "../support/http"
import { ask, connected, socketTo } from "../support/sockets"
import { httpWorld } from "../support/world"

/**
 * Input hardening over the real server (issue 10): bodies bounded before decoding, JSON only, unknown
 * fields refused as the OpenAPI document says, 400 details that never echo the input, numbers bounded
 * to what the database stores, control characters refused (line breaks kept in long texts), on
 * sockets and in multipart forms too, and malformed multipart bodies answered.
 */
const world = httpWorld({ service: { title: "Réparation de vélos", description: "Réglages.", price: 30 } })
const { server, api, provider, client } = world
/** An administrator of the test's own (a client given the role). */
let admin: Session
let jsonOperations: ReadonlyArray<{ readonly method: string; readonly path: string; readonly schema: any }>
let doc: any

beforeAll(async () => {
  admin = await newAdmin(server, api)
  doc = (await api.get("/api/docs")).body
  const resolve = (schema: any): any => (schema?.$ref ? doc.components.schemas[schema.$ref.split("/").at(-1)] : schema)
  jsonOperations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([, op]) => op.requestBody?.content?.["application/json"]?.schema !== undefined)
      .map(([method, op]) => ({ method: method.toUpperCase(), path, schema: resolve(op.requestBody.content["application/json"].schema) }))
  )
  expect(jsonOperations.length).toBeGreaterThan(20)
})

/** A concrete path of a documented one (every parameter a known id: the body is read before any lookup). */
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, world.serviceId)

const send = (method: string, path: string, body: string, headers: Record<string, string> = {}) =>
  api.call(method, path, { raw: body, token: admin.token, headers })

describe("JSON bodies are bounded before decoding", () => {
  it("a body nested 3,000 levels deep is a 400 on every JSON endpoint (it was a 500: the decoder's error formatter overflowed)", {
    timeout: 60_000
  }, async () => {
    const deep = "[".repeat(3_000) + "]".repeat(3_000)
    for (const op of jsonOperations) {
      const reply = await send(op.method, concrete(op.path), `{"x":${deep}}`)
      expectError(reply, 400, "MALFORMED_REQUEST", op.path)
      expect(reply.body.message, op.path).toBe(fr["request.tooDeep"])
    }
  })

  it(`allows ${MAX_JSON_DEPTH} levels, refuses one more`, async () => {
    const nested = (levels: number) => "[".repeat(levels) + "]".repeat(levels)
    // 32 levels in all (the body object is the first): a wrong type for the field, not too deep.
    const within = await send("POST", "/api/auth/login", `{"email":${nested(MAX_JSON_DEPTH - 1)}}`, { "accept-language": "en" })
    expectError(within, 400, "MALFORMED_REQUEST")
    expect(within.body.message).toBe(en["request.malformed"])
    const beyond = await send("POST", "/api/auth/login", `{"email":${nested(MAX_JSON_DEPTH)}}`, { "accept-language": "en" })
    expectError(beyond, 400, "MALFORMED_REQUEST")
    expect(beyond.body.message).toBe(en["request.tooDeep"])
  })

  it("a body over 1 MB is a 413, answered before it is read", async () => {
    const big = JSON.stringify({ email: "a@b.co", password: "x".repeat(MAX_JSON_BODY_BYTES) })
    expectError(await send("POST", "/api/auth/login", big), 413, "REQUEST_TOO_LARGE")
    // The connection still serves the next request.
    expect((await api.get("/api/health")).status).toBe(200)
  })

  it("a chunked body (no Content-Length) over 1 MB is a 413 too, and answered (the platform's reader closed the connection)", async () => {
    const chunk = new TextEncoder().encode(" ".repeat(64 * 1024))
    let sent = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 40) controller.enqueue(chunk)
        else controller.close()
      }
    })
    const res = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
      duplex: "half"
    } as RequestInit)
    expect(res.status).toBe(413)
    expect((await res.json()).code).toBe("REQUEST_TOO_LARGE")
    // Under the limit, a chunked body is read as any other.
    const small = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(JSON.stringify({ email: "nobody@example.com", password: "Passw0rd!" })))
        controller.close()
      }
    })
    const ok = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: small,
      duplex: "half"
    } as RequestInit)
    expect(ok.status).toBe(401)
  })

  it("a body that is not JSON is a 415 on every JSON endpoint (an XML body was read as {})", { timeout: 60_000 }, async () => {
    for (const op of jsonOperations) {
      const path = concrete(op.path)
      expectError(
        await send(op.method, path, "<login><email>a@b.co</email></login>", { "content-type": "application/xml" }),
        415,
        "UNSUPPORTED_MEDIA_TYPE",
        path
      )
      expectError(
        await send(op.method, path, "email=a%40b.co", { "content-type": "application/x-www-form-urlencoded" }),
        415,
        "UNSUPPORTED_MEDIA_TYPE",
        path
      )
      expectError(await send(op.method, path, "hello", { "content-type": "text/plain" }), 415, "UNSUPPORTED_MEDIA_TYPE", path)
    }
    const form = new FormData()
    form.set("email", "a@b.co")
    const res = await fetch(`${server.url}/api/auth/login`, { method: "POST", body: form })
    expect(res.status).toBe(415)
    expect((await res.json()).code).toBe("UNSUPPORTED_MEDIA_TYPE")
  })

  it("JSON with a charset or a +json type is read", async () => {
    const reply = await send("POST", "/api/auth/login", JSON.stringify({ email: "nobody@example.com", password: "Passw0rd!" }), {
      "content-type": "application/json; charset=utf-8"
    })
    expectError(reply, 401, "INVALID_CREDENTIALS")
  })
})

describe("unknown fields, as the OpenAPI document says", () => {
  it("every JSON request body is documented closed (additionalProperties: false) and an unknown field is a 400 naming it", {
    timeout: 60_000
  }, async () => {
    for (const op of jsonOperations) {
      expect(op.schema.additionalProperties, `${op.method} ${op.path}`).toBe(false)
      const reply = await send(op.method, concrete(op.path), JSON.stringify({ unexpectedField: 1 }), { "accept-language": "en" })
      expectError(reply, 400, "MALFORMED_REQUEST", op.path)
      expect(reply.body.details, op.path).toEqual([{ field: "unexpectedField", message: en["request.unknownField"] }])
    }
  })

  it("nested objects are closed too", async () => {
    const reply = await api.post(
      "/api/payments/checkout/session",
      {
        bookingId: "x",
        billingDetails: { name: "A", address: { line1: "1 rue", city: "Lyon", postal_code: "69001", country: "FR", state: "?" } }
      },
      { token: client.token }
    )
    expectError(reply, 400, "MALFORMED_REQUEST")
    expect(reply.body.details).toEqual([{ field: "billingDetails.address.state", message: fr["request.unknownField"] }])
  })
})

describe("400 details", () => {
  it("give the field and a generic message in the user's language, never the value sent nor the schema's text", async () => {
    for (const [language, messages] of [
      ["fr", fr],
      ["en", en]
    ] as const) {
      const reply = await api.post("/api/auth/login", { email: { secret: "leak-me-1234" }, password: ["hunter2-leak"] }, { language })
      expectError(reply, 400, "MALFORMED_REQUEST")
      expect(reply.body.details).toEqual([
        { field: "email", message: messages["request.invalidField"] },
        { field: "password", message: messages["request.invalidField"] }
      ])
      expect(reply.text).not.toMatch(/leak-me|hunter2|Expected|actual|string/)
    }
  })
})

describe("numbers are bounded to what the database stores", () => {
  it("a price of 1e-7 or 5e-324, a latitude of 5e-324 are refused with a 4xx (they were 500s)", async () => {
    const patch = (body: unknown) => api.patch(`/api/services/${world.serviceId}`, body, { token: provider.token, language: "en" })
    for (const value of [5e-324, -5e-324, 1e-10, 1e300, 2 ** 53 + 2]) {
      for (const field of ["price", "lat", "lng", "duration", "categoryId"]) {
        const reply = await patch({ [field]: value })
        expectError(reply, 400, "MALFORMED_REQUEST")
        expect(reply.body.details).toEqual([{ field, message: en["request.numberOutOfRange"] }])
      }
    }
    // Within what JSON numbers may be, but not a price: 422 on the field.
    for (const price of [1e-7, 0.001, 0.004, "0.001"]) {
      const reply = await patch({ price })
      expectError(reply, 422, "VALIDATION_ERROR")
      expect(reply.body.details.map((d: any) => d.field)).toEqual(["price"])
    }
    // A subnormal written as text.
    const tiny = `0.${"0".repeat(323)}5`
    for (const field of ["lat", "lng", "price"]) expectError(await patch({ [field]: tiny }), 422, "VALIDATION_ERROR")
    // Nothing changed, and ordinary values still work.
    const ok = await patch({ price: 12.5, lat: 45.5017, lng: -73.5673 })
    expect(ok.status, ok.text).toBe(200)
    expect(ok.body.data.service).toMatchObject({ priceMinor: 1250, lat: 45.5017, lng: -73.5673 })
  })

  it("profile numbers too (hourly rate, years of experience)", async () => {
    for (const body of [{ hourlyRate: 5e-324 }, { experienceYears: 5e-324 }, { hourlyRate: 1e300 }]) {
      expectError(await api.patch("/api/users/me", body, { token: provider.token }), 400, "MALFORMED_REQUEST")
    }
    for (const body of [{ hourlyRate: 1e-7 }, { hourlyRate: `0.${"0".repeat(323)}5` }, { experienceYears: 1e-7 }]) {
      expectError(await api.patch("/api/users/me", body, { token: provider.token }), 422, "VALIDATION_ERROR")
    }
  })

  it("no number in any documented field answers a 5xx", { timeout: 120_000 }, async () => {
    const values = [5e-324, -5e-324, 1e-7, -1e-7, 1e308, -1e308, 2 ** 31, 2 ** 53 + 2, -(2 ** 63)]
    for (const op of jsonOperations) {
      for (const field of Object.keys(op.schema.properties ?? {})) {
        for (const value of values) {
          // httpClient fails on any 5xx.
          await api.call(op.method, concrete(op.path), { json: { [field]: value }, token: admin.token })
        }
      }
    }
  })
})

describe("control characters", () => {
  it("are refused in one-line texts (a title with an ANSI escape was stored), with the field named", async () => {
    for (const title of ["A\u001b[31mred", "bell\u0007", "C1\u0085", "two\nlines", "nul\u0000"]) {
      const reply = await api.patch(`/api/services/${world.serviceId}`, { title }, { token: provider.token, language: "en" })
      expectError(reply, 400, "MALFORMED_REQUEST")
      expect(reply.body.details).toEqual([{ field: "title", message: en["request.controlCharacters"] }])
    }
    expectError(await api.patch("/api/users/me", { firstName: "Nadia\u001b[2J" }, { token: provider.token }), 400, "MALFORMED_REQUEST")
  })

  it("long texts keep line breaks and tabs (CR LF read as LF) and refuse the rest", async () => {
    const kept = await api.patch(
      `/api/services/${world.serviceId}`,
      { description: "Ligne 1\r\nLigne 2\n\tindentée\rfin" },
      { token: provider.token }
    )
    expect(kept.status, kept.text).toBe(200)
    expect(kept.body.data.service.description).toBe("Ligne 1\nLigne 2\n\tindentée\nfin")
    expectError(
      await api.patch(`/api/services/${world.serviceId}`, { description: "x\u001b[31m" }, { token: provider.token }),
      400,
      "MALFORMED_REQUEST"
    )
    const bio = await api.patch("/api/users/me", { bio: "Bonjour\nà tous" }, { token: provider.token })
    expect(bio.status, bio.text).toBe(200)
    expectError(await api.patch("/api/users/me", { bio: "\u009bcsi" }, { token: provider.token }), 400, "MALFORMED_REQUEST")
  })

  it("are refused over the socket as over HTTP (a NUL gave INTERNAL_ERROR), and line breaks kept", async () => {
    const other = await newClient(server, api)
    const conversation = await api.post("/api/conversations", { participantId: other.id }, { token: client.token })
    const conversationId = conversation.body.data.conversation.id as string
    expectError(
      await api.post(`/api/conversations/${conversationId}/messages`, { content: "a\u0000b" }, { token: client.token }),
      400,
      "MALFORMED_REQUEST"
    )
    const socket = socketTo(server, { token: client.token, language: "en" })
    try {
      await connected(socket)
      for (const content of ["nul\u0000", "esc\u001b[31m", "c1\u0090"]) {
        expect(await ask(socket, "send_message", { conversationId, content })).toEqual({
          success: false,
          code: "MALFORMED_REQUEST",
          message: en["request.malformed"]
        })
      }
      expect(await ask(socket, "send_message", { conversationId: `${conversationId}\u0000`, content: "x" })).toMatchObject({
        success: false,
        code: "MALFORMED_REQUEST"
      })
      expect(await ask(socket, "mark_as_read", { conversationId: "\u0000", messageIds: [] })).toMatchObject({
        success: false,
        code: "MALFORMED_REQUEST"
      })
      const sent = await ask(socket, "send_message", { conversationId, content: "Salut\r\n\tça va ?" })
      expect(sent.success).toBe(true)
      expect(sent.data.message.content).toBe("Salut\n\tça va ?")
    } finally {
      socket.disconnect()
    }
  })
})

describe("malformed multipart requests are answered", () => {
  const raw = async (path: string, body: string, contentType: string, token: string) => {
    const res = await fetch(server.url + path, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": contentType },
      body
    })
    return { status: res.status, body: await res.json() }
  }

  it("without a boundary: 400 (the connection was closed without an answer)", async () => {
    const reply = await raw("/api/uploads/avatar", "abc", "multipart/form-data", client.token)
    expect(reply.status).toBe(400)
    expect(reply.body.code).toBe("MALFORMED_REQUEST")
    const again = await raw("/api/provider-applications/submit", "abc", "multipart/form-data", client.token)
    expect(again.status).toBe(400)
  })

  it("a text field over 64 kB (here 2 MB, still being sent when the limit is reached): 413 (no answer before)", async () => {
    const applicant = await newClient(server, api)
    const body = `--X\r\ncontent-disposition: form-data; name="motivation"\r\n\r\n${"a".repeat(2_000_000)}\r\n--X--\r\n`
    const reply = await raw("/api/provider-applications/submit", body, "multipart/form-data; boundary=X", applicant.token)
    expect(reply.status).toBe(413)
    expect(reply.body.code).toBe("REQUEST_TOO_LARGE")
  })

  it("a text field with a control character: 422 naming it", async () => {
    const applicant = await newClient(server, api)
    const body = `--X\r\ncontent-disposition: form-data; name="motivation"\r\n\r\nJ'aime\u001b[31m\r\n--X--\r\n`
    const reply = await raw("/api/provider-applications/submit", body, "multipart/form-data; boundary=X", applicant.token)
    expect(reply.status).toBe(422)
    expect(reply.body.details).toEqual([{ field: "motivation", message: fr["request.controlCharacters"] }])
  })
})
