import { Effect, Option, Redacted } from "effect"
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { AppConfig } from "./config"

/**
 * The application's signing secret: JWT_SECRET, or in its absence a random secret kept in DATA_DIR
 * so that what it signed (access tokens, unsubscribe links) survives a restart.
 */
export const appSecret = Effect.map(AppConfig, (config): Uint8Array => {
  if (Option.isSome(config.jwtSecret)) return new TextEncoder().encode(Redacted.value(config.jwtSecret.value))
  const file = path.resolve(config.dataDir, "jwt-secret")
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true })
    try {
      fs.writeFileSync(file, crypto.randomBytes(48).toString("base64url"), { mode: 0o600, flag: "wx" })
    } catch (error) {
      // Another layer (or process) wrote it first: read theirs.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
    }
  }
  return new TextEncoder().encode(fs.readFileSync(file, "utf8").trim())
})

/** A key for one purpose, derived from the app secret, so one use's MACs never validate another's. */
export const derivedKey = (purpose: string) =>
  Effect.map(appSecret, (secret) => crypto.createHmac("sha256", secret).update(`marketplace:${purpose}`).digest())
