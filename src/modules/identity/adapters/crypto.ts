import { Effect, Layer, Option } from "effect"
import * as crypto from "node:crypto"
import { promisify } from "node:util"
import { appSecret } from "../../../platform/app-secret"
import { newId } from "../../../platform/clock"
import { AppConfig } from "../../../platform/config"
import { isUuid } from "../../../platform/ids"
import { Role } from "../domain"
import { AccessTokens, PasswordHasher, Secrets } from "../ports"

const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions
) => Promise<Buffer>
const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 }

const hashPassword = async (password: string) => {
  const salt = crypto.randomBytes(16)
  const key = await scrypt(password, salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p })
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString("base64")}$${key.toString("base64")}`
}

const verifyPassword = async (password: string, stored: string) => {
  const [scheme, n, r, p, salt, expected] = stored.split("$")
  if (scheme !== "scrypt" || !salt || !expected) return false
  const expectedKey = Buffer.from(expected, "base64")
  const key = await scrypt(password, Buffer.from(salt, "base64"), expectedKey.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: 64 * 1024 * 1024
  })
  return crypto.timingSafeEqual(key, expectedKey)
}

/** scrypt, a memory-hard KDF from Node's own crypto (no native add-on to build). */
export const ScryptPasswordHasher = Layer.effect(
  PasswordHasher,
  Effect.map(
    Effect.promise(() => hashPassword(crypto.randomBytes(16).toString("hex"))),
    (dummyHash) => ({
      hash: (password) => Effect.promise(() => hashPassword(password)),
      verify: (password, hash) => Effect.promise(() => verifyPassword(password, hash)),
      dummyHash
    })
  )
)

export const NodeSecrets = Layer.succeed(Secrets, {
  random: () => Effect.sync(() => crypto.randomBytes(32).toString("base64url")),
  digest: (secret) => crypto.createHash("sha256").update(secret).digest("base64url"),
  uuid: () => newId
})

const signingSecret = appSecret

const isRole = (u: unknown): u is Role => typeof u === "string" && (Role.literals as ReadonlyArray<string>).includes(u)

const HEADER = Buffer.from(JSON.stringify({ alg: "HS256", typ: "JWT" })).toString("base64url")

/**
 * Short-lived HS256 access tokens (RFC 7519), signed and verified with node:crypto directly: it is
 * synchronous, where jose's WebCrypto path costs a thread-pool round trip on every request (the
 * `GET /api/auth/me` benchmark gained about 25% from it). Only HS256 is accepted, so `alg`
 * confusion is impossible; the signature is compared in constant time.
 */
export const makeHs256 = (secret: Uint8Array, ttlSeconds: number, now: () => number = Date.now) => {
  // One KeyObject for the process: passing raw bytes makes createHmac build a new key on every call.
  const key = crypto.createSecretKey(secret)
  const mac = (input: string) => crypto.createHmac("sha256", key).update(input).digest()
  return {
    sign: (claims: { readonly userId: string; readonly role: Role; readonly sessionId?: string | undefined }) => {
      const iat = Math.floor(now() / 1000)
      const payload = Buffer.from(
        JSON.stringify({ sub: claims.userId, role: claims.role, sid: claims.sessionId, iat, exp: iat + ttlSeconds })
      ).toString("base64url")
      const body = `${HEADER}.${payload}`
      return `${body}.${mac(body).toString("base64url")}`
    },
    verify: (token: string): Option.Option<{ userId: string; role: Role; sessionId?: string }> => {
      const parts = token.split(".")
      if (parts.length !== 3 || parts[0] !== HEADER) return Option.none()
      const expected = mac(`${parts[0]}.${parts[1]}`)
      const given = Buffer.from(parts[2]!, "base64url")
      if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return Option.none()
      try {
        const payload = JSON.parse(Buffer.from(parts[1]!, "base64url").toString("utf8")) as Record<string, unknown>
        // A subject that is not a UUID names no account (and must not reach a uuid column: a 500).
        if (typeof payload.sub !== "string" || !isUuid(payload.sub) || !isRole(payload.role) || typeof payload.exp !== "number")
          return Option.none()
        if (payload.exp * 1000 <= now()) return Option.none()
        return Option.some({
          userId: payload.sub,
          role: payload.role,
          ...(typeof payload.sid === "string" ? { sessionId: payload.sid } : {})
        })
      } catch {
        return Option.none()
      }
    }
  }
}

export const JwtAccessTokens = Layer.effect(
  AccessTokens,
  Effect.gen(function* () {
    const config = yield* AppConfig
    const jwt = makeHs256(yield* signingSecret, config.accessTokenTtlSeconds)
    return {
      sign: (claims) => Effect.sync(() => ({ token: jwt.sign(claims), expiresIn: config.accessTokenTtlSeconds })),
      verify: (token) => Effect.sync(() => jwt.verify(token))
    }
  })
)
