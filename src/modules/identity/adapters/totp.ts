import { Effect, Layer, Option } from "effect"
import { Secret, TOTP } from "otpauth"
import QRCode from "qrcode"
import { AppConfig } from "../../../platform/config"
import { OneTimeCodes, type OneTimeCodesShape } from "../ports"

const PERIOD_SECONDS = 30

/** `issuer`: what authenticator apps show above the account name (the brand's name, SITE_NAME). */
const totpOf = (issuer: string, secret: string, accountName = "") =>
  new TOTP({ issuer, label: accountName, algorithm: "SHA1", digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(secret) })

/** RFC 6238 codes with otpauth; QR codes as SVG with qrcode (rendered inline by the UI, no image request). */
const otpAuthCodes = (issuer: string): OneTimeCodesShape => ({
  newSecret: () => new Secret({ size: 20 }).base32,
  uri: (secret, accountName) => totpOf(issuer, secret, accountName).toString(),
  qrCode: (uri) => Effect.promise(() => QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 })),
  check: (secret, code, at) => {
    const token = code.replace(/\s/g, "")
    if (secret === "" || !/^\d{6}$/.test(token)) return Option.none()
    const timestamp = at.getTime()
    const delta = totpOf(issuer, secret).validate({ token, timestamp, window: 1 })
    return delta === null ? Option.none() : Option.some(Math.floor(timestamp / 1000 / PERIOD_SECONDS) + delta)
  },
  codeAt: (secret, at) => totpOf(issuer, secret).generate({ timestamp: at.getTime() })
})

/** The codes, issued by the configured brand. */
export const OtpAuthCodes = Layer.effect(
  OneTimeCodes,
  Effect.map(AppConfig, (config) => otpAuthCodes(config.siteName))
)
