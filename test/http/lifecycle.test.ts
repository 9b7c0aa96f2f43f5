import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import * as fs from "node:fs"
import * as http from "node:http"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { pdfText } from "../support/pdf"
import { freePort } from "../support/server"
import { scratchDir } from "../support/scratch"

// The built server as `make start` runs it (dist/server.js, embedded PGlite under DATA_DIR).
const root = path.resolve(import.meta.dirname, "../..")
const waitForHealth = async (url: string, child: ChildProcess) => {
  const deadline = Date.now() + 45_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`)
    try {
      if ((await fetch(`${url}/api/health`)).ok) return
    } catch {}
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error("server not ready")
}

const dataDir = scratchDir("lifecycle")
const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "warn" }
let server: ChildProcess
let url: string
let stderr = ""

beforeAll(async () => {
  const port = await freePort()
  url = `http://127.0.0.1:${port}`
  server = spawn(process.execPath, ["dist/server.js"], { cwd: root, env: { ...env, PORT: String(port) } })
  server.stderr!.on("data", (chunk) => (stderr += chunk))
  server.stdout!.resume()
  await waitForHealth(url, server)
}, 60_000)
afterAll(() => {
  if (server.exitCode === null) server.kill("SIGKILL")
})

describe("the embedded server", () => {
  it("serves the UI with an index fallback for client routes, and the OpenAPI document", async () => {
    const page = await fetch(`${url}/login?verify=1`)
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toContain("text/html")
    expect(await page.text()).toContain('<div id="root">')
    const docs = await fetch(`${url}/api/docs`)
    expect((await docs.json()).openapi).toMatch(/^3\./)
  })

  // Before the tests that block the event loop (spawnSync): a kept-alive socket would be closed by then.
  it("writes receipts as PDF from the bundle (pdfkit and its fonts stay outside it), and providers' earnings", async () => {
    const tokenOf = async (email: string, password: string) => {
      const reply = await fetch(`${url}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password })
      })
      return ((await reply.json()) as { data: { token: string } }).data.token
    }
    // The demo seed's completed booking of the demo client was captured.
    const client = await tokenOf("lucas.bernard@marketplace.local", "Client1234!")
    const auth = { authorization: `Bearer ${client}`, "accept-language": "fr" }
    const mine = (await (await fetch(`${url}/api/bookings/me?as=client`, { headers: auth })).json()) as {
      data: { bookings: Array<{ id: string; paymentStatus: string }> }
    }
    const captured = mine.data.bookings.find((b) => b.paymentStatus === "CAPTURED")
    expect(captured, JSON.stringify(mine.data.bookings)).toBeDefined()
    const receipt = (await (await fetch(`${url}/api/bookings/${captured!.id}/receipt`, { headers: auth })).json()) as {
      data: { receipt: { formattedPaid: string } }
    }
    const pdf = await fetch(`${url}/api/bookings/${captured!.id}/receipt.pdf`, { headers: auth })
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get("content-type")).toBe("application/pdf")
    const bytes = new Uint8Array(await pdf.arrayBuffer())
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe("%PDF-")
    expect(pdfText(bytes).map((line) => line.replace(/\s/g, " "))).toContain(receipt.data.receipt.formattedPaid.replace(/\s/g, " "))
    // Its provider's earnings show the booking's net.
    const provider = await tokenOf("marie.dubois@marketplace.local", "Provider1234!")
    const earnings = (await (
      await fetch(`${url}/api/providers/me/earnings`, { headers: { authorization: `Bearer ${provider}` } })
    ).json()) as {
      data: { earnings: Array<{ bookingId: string; state: string; grossMinor: number; netMinor: number }> }
    }
    const line = earnings.data.earnings.find((e) => e.bookingId === captured!.id)
    expect(line?.state).toBe("CAPTURED")
    expect(line!.netMinor).toBe(line!.grossMinor - Math.round(line!.grossMinor * 0.05))
  })

  it("holds a lock so a second server cannot open the same data folder", async () => {
    const second = spawnSync(process.execPath, ["dist/server.js"], {
      cwd: root,
      env: { ...env, PORT: String(await freePort()) },
      encoding: "utf8",
      timeout: 30_000
    })
    expect(second.status).not.toBe(0)
    expect(second.stdout + second.stderr).toContain("is in use by process")
  })

  it("lets the CLI reach the running server's database through its socket", () => {
    const cli = spawnSync(process.execPath, ["bin/run.mjs", "seed", "--json"], { cwd: root, env, encoding: "utf8", timeout: 30_000 })
    expect(cli.status, cli.stderr).toBe(0)
    const accounts = JSON.parse(cli.stdout).accounts as Array<{ role: string; created: boolean }>
    expect(accounts.map((a) => a.role)).toEqual(expect.arrayContaining(["ADMIN", "PROVIDER", "CLIENT"]))
    expect(accounts.every((a) => !a.created)).toBe(true) // seeded by the server's first start
  })

  it("stops gracefully on SIGTERM: an in-flight request completes, the lock is released", async () => {
    // A request on its own connection (not an idle keep-alive socket, which a closing server may
    // rightly drop), fully sent before the signal; login takes tens of ms (scrypt), so it is in flight.
    const body = JSON.stringify({ email: "lucas.bernard@marketplace.local", password: "Client1234!" })
    const answer = new Promise<number>((resolve, reject) => {
      const request = http.request(
        `${url}/api/auth/login`,
        { method: "POST", agent: false, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
        (response) => {
          response.resume()
          response.on("end", () => resolve(response.statusCode!))
        }
      )
      request.on("error", reject)
      request.end(body, () => setTimeout(() => server.kill("SIGTERM"), 10))
    })
    const exited = new Promise<number | null>((resolve) => server.once("exit", (code) => resolve(code)))
    expect(await answer).toBe(200)
    expect(await exited).toBe(0)
    expect(fs.existsSync(path.join(dataDir, "pglite.lock"))).toBe(false)
    expect(stderr).not.toMatch(/Error/)
  }, 30_000)
})
