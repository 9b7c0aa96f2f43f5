#!/usr/bin/env node
// `make screenshots`: PNGs of the main pages under docs/screenshots/ (shown in the README), from the
// built server (dist/) on a fresh embedded database with the demo data, in Debian's Chromium
// (playwright-core; CHROMIUM_PATH to use another). Regenerate after a visible change.
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { chromium } from "playwright-core"
import sharp from "sharp"

const root = path.resolve(import.meta.dirname, "..")
const out = path.join(root, "docs/screenshots")
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"

const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = net.createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })

const port = await freePort()
const origin = `http://127.0.0.1:${port}`
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "screenshots-"))
const server = spawn(process.execPath, [path.join(root, "dist/server.js")], {
  cwd: root,
  env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn", DATA_DIR: dataDir, SEED_DEMO_DATA: "true" },
  stdio: ["ignore", "ignore", "inherit"]
})
const stopServer = () =>
  new Promise((resolve) => (server.exitCode !== null ? resolve() : (server.once("exit", resolve), server.kill("SIGTERM"))))

const api = async (method, url, body, token) => {
  const reply = await fetch(`${origin}${url}`, {
    method,
    headers: { ...(body ? { "content-type": "application/json" } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined
  })
  const json = await reply.json().catch(() => null)
  if (!reply.ok) throw new Error(`${method} ${url}: ${reply.status} ${JSON.stringify(json)}`)
  return json.data
}

/** Waits until the server answers and the demo data is seeded (its services listed). */
const ready = async () => {
  const deadline = Date.now() + 120_000
  for (;;) {
    try {
      const data = await api("GET", "/api/services?limit=1")
      if (data.services.length > 0) return
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error("the server did not start in 2 minutes")
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
}

const accounts = {
  client: ["lucas.bernard@marketplace.local", "Client1234!"],
  provider: ["marie.dubois@marketplace.local", "Provider1234!"],
  admin: ["admin@marketplace.local", "Admin1234!"]
}

let browser
try {
  await ready()
  const sessions = {}
  for (const [role, [email, password]] of Object.entries(accounts))
    sessions[role] = await api("POST", "/api/auth/login", { email, password })
  const provider = sessions.provider.user
  // A conversation to show on /messaging.
  const { conversation } = await api("POST", "/api/conversations", { participantId: provider.id }, sessions.client.token)
  await api(
    "POST",
    `/api/conversations/${conversation.id}/messages`,
    { content: "Bonjour Marie, êtes-vous disponible samedi matin pour un grand ménage ?" },
    sessions.client.token
  )
  const { services } = await api("GET", "/api/services?limit=50")
  const service = services.find((s) => s.userId === provider.id) ?? services[0]

  // name, path, role, the widths and languages it is shown in.
  const shots = [
    ["services", "/services", null, [1280, 375], ["fr", "en"]],
    ["service", `/services/${service.id}`, null, [1280, 375], ["fr", "en"]],
    ["profile", `/profile/${provider.id}`, null, [1280, 375], ["fr"]],
    ["bookings", "/bookings", "client", [1280, 375], ["fr"]],
    ["messaging", `/messaging`, "client", [1280, 375], ["en"]],
    ["admin", "/admin", "admin", [1280, 375], ["fr", "en"]]
  ]
  browser = await chromium.launch({ executablePath: chromiumPath, args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"] })
  fs.mkdirSync(out, { recursive: true })
  for (const [name, url, role, widths, languages] of shots)
    for (const language of languages) {
      if (role) await api("PATCH", "/api/users/me", { preferredLanguage: language }, sessions[role].token)
      for (const width of widths) {
        const context = await browser.newContext({
          viewport: { width, height: width < 768 ? 812 : 900 },
          deviceScaleFactor: 1,
          locale: language === "fr" ? "fr-FR" : "en-CA"
        })
        await context.addInitScript(
          ({ token, language }) => {
            localStorage.setItem("lang", language)
            localStorage.setItem("cookieConsent", JSON.stringify({ hasConsent: false, consentDate: new Date().toISOString() }))
            if (token) localStorage.setItem("token", token)
          },
          { token: role ? sessions[role].token : null, language }
        )
        const page = await context.newPage()
        await page.goto(`${origin}${url}${url.includes("?") ? "&" : "?"}lang=${language}`)
        await page.locator("h1").first().waitFor()
        await page.waitForFunction(() => document.querySelector(".loading") === null)
        await page.waitForLoadState("networkidle")
        // Images lazy-loaded below the fold are not in the picture; those above it are loaded.
        await page.waitForFunction(() => [...document.images].every((img) => img.loading === "lazy" || img.complete))
        const file = path.join(out, `${name}-${width}-${language}.png`)
        // A palette PNG: a fraction of the size, no visible loss on flat UI colours.
        await sharp(await page.screenshot())
          .png({ palette: true, quality: 90, compressionLevel: 9 })
          .toFile(file)
        console.log(path.relative(root, file))
        await context.close()
      }
    }
} finally {
  await browser?.close()
  await stopServer()
  fs.rmSync(dataDir, { recursive: true, force: true })
}
