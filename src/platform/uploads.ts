import { HttpServerRequest } from "@effect/platform"
import { NodeHttpServerRequest, NodeStream } from "@effect/platform-node"
import * as MP from "multipasta"
import { Effect, Either, Option, Stream } from "effect"
import sharp from "sharp"
import { BadRequest, invalid, issue, PayloadTooLarge, ServiceUnavailable, UnsupportedMediaType, type ValidationFailed } from "./errors"
import type { MessageKey } from "./messages"
import { hasForbiddenControl, normalizeLineBreaks } from "./text"

/**
 * Uploaded files: their type is read from their first bytes (never from the name or the declared
 * type), their size is capped, images are decoded and re-encoded (which drops EXIF, GPS, comments and
 * any trailing payload), and user file names are kept only as display text.
 */
import { MAX_UPLOAD_BYTES, multipartLimits } from "./upload-limits"

export { MAX_UPLOAD_BYTES, multipartLimits } from "./upload-limits"

export type FileType = "image/jpeg" | "image/png" | "image/webp" | "application/pdf"
export const ImageTypes: ReadonlyArray<FileType> = ["image/jpeg", "image/png", "image/webp"]

const startsWith = (bytes: Uint8Array, signature: ReadonlyArray<number>, offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b)

/** The type of a file from its magic bytes: JPEG FF D8 FF, PNG 89 50 4E 47 0D 0A 1A 0A, WebP RIFF....WEBP, PDF %PDF-. */
export const sniff = (bytes: Uint8Array): FileType | undefined => {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg"
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png"
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return "image/webp"
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return "application/pdf"
  return undefined
}

export const extensionOf = (type: FileType) =>
  ({ "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp", "application/pdf": "pdf" })[type]

/** A file as received: the client's name (display only) and its bytes. */
export interface IncomingFile {
  readonly name: string
  readonly bytes: Uint8Array
}

/** A browser's empty file input (no name, no content) counts as no file at all. */
export const isAbsent = (file: IncomingFile | undefined): file is undefined =>
  file === undefined || (file.name === "" && file.bytes.length === 0)

export interface FileRules {
  readonly allowed: ReadonlyArray<FileType>
  /** Message of a 415 (the list of accepted formats). */
  readonly unsupported: MessageKey
  readonly tooLarge?: MessageKey
  readonly maxBytes?: number
}

/**
 * Pure checks of one received file: empty (422 on the field), over the limit (413), or a type that
 * is not allowed (415). Answers the sniffed type.
 */
export const checkFile = (
  field: string,
  file: IncomingFile,
  rules: FileRules
): Either.Either<FileType, PayloadTooLarge | UnsupportedMediaType | ValidationFailed> => {
  if (file.bytes.length === 0) return Either.left(invalid([issue(field, "upload.empty")]))
  if (file.bytes.length > (rules.maxBytes ?? MAX_UPLOAD_BYTES)) {
    return Either.left(new PayloadTooLarge({ code: "FILE_TOO_LARGE", key: rules.tooLarge ?? "upload.tooLarge", params: { field } }))
  }
  const type = sniff(file.bytes)
  if (type === undefined || !rules.allowed.includes(type)) {
    return Either.left(new UnsupportedMediaType({ code: "UNSUPPORTED_FILE_TYPE", key: rules.unsupported, params: { field } }))
  }
  return Either.right(type)
}

/**
 * The most pixels an uploaded image may have: a 24-megapixel camera's picture (6000 × 4000) passes, a
 * 154 kB PNG declaring 6300 × 6300 does not. Its header is read before anything decodes it.
 */
export const MAX_PIXELS = 25_000_000

/**
 * Images decoded at once in this process, and uploads allowed to wait for a turn: each decode holds
 * up to tens of megabytes of pixels (four large photos at once took the server to 1.5 GB), so the
 * work is bounded and the rest is refused as busy (503 with Retry-After) rather than queued forever.
 */
export const DECODE_LIMITS = { atOnce: 2, waiting: 8, retryAfterSeconds: 5 } as const

const decodeTurns = Effect.unsafeMakeSemaphore(DECODE_LIMITS.atOnce)
const load = { admitted: 0, running: 0 }
const Busy = new ServiceUnavailable({ code: "UPLOADS_BUSY", key: "upload.busy", retryAfterSeconds: DECODE_LIMITS.retryAfterSeconds })

const counted = <A, E>(key: keyof typeof load, effect: Effect.Effect<A, E>) =>
  Effect.ensuring(
    Effect.zipRight(
      Effect.sync(() => load[key]++),
      effect
    ),
    Effect.sync(() => load[key]--)
  )

/** Runs `decode` when one of the process's decode turns is free, or refuses at once when too many wait. */
const inDecodeTurn = <A, E>(decode: Effect.Effect<A, E>): Effect.Effect<A, E | ServiceUnavailable> =>
  Effect.suspend(
    (): Effect.Effect<A, E | ServiceUnavailable> =>
      load.admitted >= DECODE_LIMITS.atOnce + DECODE_LIMITS.waiting
        ? Effect.fail(Busy)
        : counted("admitted", decodeTurns.withPermits(1)(counted("running", decode)))
  )

/** The decodes of this process now: admitted (running or waiting for a turn) and running. */
export const decodeLoad = (): { readonly admitted: number; readonly running: number } => ({ ...load })

/** The image's upright size from its header; more than MAX_PIXELS is refused (413) before a pixel is decoded. */
const withinPixelLimit = (field: string, bytes: Uint8Array, unsupported: MessageKey) =>
  Effect.flatMap(
    Effect.tryPromise({
      try: () => sharp(bytes).metadata(),
      catch: () => new UnsupportedMediaType({ code: "UNSUPPORTED_FILE_TYPE", key: unsupported, params: { field } })
    }),
    ({ width = 0, height = 0, orientation = 1 }) =>
      width * height > MAX_PIXELS
        ? Effect.fail(new PayloadTooLarge({ code: "IMAGE_TOO_LARGE", key: "upload.tooManyPixels", params: { field } }))
        : // EXIF orientations 5 to 8 turn the picture a quarter: its upright width is its stored height.
          Effect.succeed(orientation >= 5 ? { width: height, height: width } : { width, height })
  )

/** An uploaded image as sharp reads it: bounded in pixels, a broken file refused, one frame, upright (EXIF orientation applied). */
const decodeImage = (bytes: Uint8Array) => sharp(bytes, { failOn: "error", limitInputPixels: MAX_PIXELS, animated: false }).rotate()

/** The errors of decoding an upload: not an image, too many pixels, or the server busy decoding others. */
export type DecodeFailure = UnsupportedMediaType | PayloadTooLarge | ServiceUnavailable

/** One WebP rendition of an image: `size` is the box it fits in (its longer side at most `size` pixels). */
export interface Rendition {
  readonly size: number
  readonly width: number
  readonly height: number
  readonly bytes: Uint8Array
}

/**
 * An uploaded image (already checked by checkFile) as WebP renditions fitting squares of the given
 * sizes, smallest first, never enlarged: the sizes above the first one the picture fits in are left
 * out (a 1000-pixel picture gives 400, 800 and itself as the 1600). Like normalizeFile, the re-encoding drops every metadata and whatever follows the
 * picture; an image that does not decode is refused as unsupported (415).
 */
export const webpRenditions = (
  field: string,
  bytes: Uint8Array,
  sizes: ReadonlyArray<{ readonly size: number; readonly quality: number }>,
  unsupported: MessageKey
): Effect.Effect<ReadonlyArray<Rendition>, DecodeFailure> =>
  Effect.flatMap(withinPixelLimit(field, bytes, unsupported), (declared) =>
    inDecodeTurn(renditionsOf(field, bytes, declared, sizes, unsupported))
  )

const renditionsOf = (
  field: string,
  bytes: Uint8Array,
  declared: { readonly width: number; readonly height: number },
  sizes: ReadonlyArray<{ readonly size: number; readonly quality: number }>,
  unsupported: MessageKey
) =>
  Effect.tryPromise({
    try: async () => {
      // Decoded once into raw pixels no larger than the largest rendition (JPEG and WebP shrink while
      // they decode), then each size is resized from them.
      const largest = Math.max(...sizes.map((s) => s.size))
      const { data, info } = await decodeImage(bytes)
        .resize({ width: largest, height: largest, fit: "inside", withoutEnlargement: true })
        .raw()
        .toBuffer({ resolveWithObject: true })
      const raw = { raw: { width: info.width, height: info.height, channels: info.channels } } as const
      const longer = Math.max(declared.width, declared.height)
      const wanted = [...sizes].sort((a, b) => a.size - b.size).filter((_, i, all) => i === 0 || all[i - 1]!.size < longer)
      return Promise.all(
        wanted.map(async ({ size, quality }) => {
          // The size the upright original fits in, resized from the smaller pixels to exactly that.
          const scale = Math.min(1, size / longer)
          const width = Math.max(1, Math.round(declared.width * scale))
          const height = Math.max(1, Math.round(declared.height * scale))
          const { data: out, info: done } = await sharp(data, raw)
            .resize({ width, height, fit: "fill" })
            .webp({ quality, effort: 4 })
            .toBuffer({ resolveWithObject: true })
          return { size, width: done.width, height: done.height, bytes: new Uint8Array(out) }
        })
      )
    },
    catch: () => new UnsupportedMediaType({ code: "UNSUPPORTED_FILE_TYPE", key: unsupported, params: { field } })
  })

/**
 * Decodes an image and encodes it again in the same format, upright (EXIF orientation applied):
 * metadata (EXIF, XMP, ICC, text chunks) and anything appended after the picture are dropped. An
 * image that does not decode is refused as unsupported (415). PDFs are kept byte for byte.
 */
export const normalizeFile = (
  field: string,
  type: FileType,
  bytes: Uint8Array,
  unsupported: MessageKey
): Effect.Effect<Uint8Array, DecodeFailure> => {
  if (type === "application/pdf") return Effect.succeed(bytes)
  return Effect.zipRight(withinPixelLimit(field, bytes, unsupported), inDecodeTurn(reencoded(field, type, bytes, unsupported)))
}

const reencoded = (field: string, type: FileType, bytes: Uint8Array, unsupported: MessageKey) =>
  Effect.tryPromise({
    try: async () => {
      const image = decodeImage(bytes)
      const encoded =
        type === "image/jpeg"
          ? image.jpeg({ quality: 88 })
          : type === "image/png"
            ? image.png({ compressionLevel: 6 })
            : image.webp({ quality: 88 })
      return new Uint8Array(await encoded.toBuffer())
    },
    catch: () => new UnsupportedMediaType({ code: "UNSUPPORTED_FILE_TYPE", key: unsupported, params: { field } })
  })

/**
 * How an uploaded file is served: an image is shown in place; anything else (a PDF) is downloaded,
 * never opened by the browser on the application's origin.
 */
export const uploadDisposition = (contentType: string, name: string) =>
  contentDisposition(contentType.startsWith("image/") ? "inline" : "attachment", name)

/** A user's file name as display text: no folders, no control characters, at most 150 characters. */
export const displayName = (name: string, fallback = "file") => {
  const base = name.split(/[\\/]/).pop() ?? ""
  // eslint-disable-next-line no-control-regex
  const cleaned = base
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .trim()
    .replace(/^\.+/, "")
    .slice(0, 150)
    .trim()
  return cleaned === "" ? fallback : cleaned
}

/** `Content-Disposition` for a download whose name came from a user (ASCII fallback plus UTF-8 form). */
export const contentDisposition = (kind: "inline" | "attachment", name: string) => {
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\;]/g, "_")
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`
}

// ---- Multipart bodies ------------------------------------------------------------------------

export interface MultipartForm {
  readonly fields: Readonly<Record<string, string>>
  readonly files: Readonly<Record<string, IncomingFile>>
}

export interface MultipartSpec {
  readonly files: ReadonlyArray<string>
  readonly fields: ReadonlyArray<string>
}

const Malformed = new BadRequest({ code: "MALFORMED_REQUEST", key: "request.malformed" })

/**
 * The field name and file name of a part. multipasta leaves both empty when the Content-Disposition
 * holds non-ASCII text (browsers send UTF-8 file names as is: "photo été.jpg"): read them from the
 * raw header then.
 */
const partNames = (info: MP.PartInfo): { readonly name: string; readonly filename: string | undefined } => {
  if (info.name !== "") return { name: info.name, filename: info.filename }
  const raw = info.headers["content-disposition"]
  const header = Array.isArray(raw) ? (raw[0] ?? "") : (raw ?? "")
  const param = (key: string) => {
    const match = new RegExp(`;\\s*${key}="((?:[^"\\\\]|\\\\.)*)"`, "i").exec(header)
    return match ? match[1]!.replace(/\\(.)/g, "$1") : undefined
  }
  return { name: param("name") ?? "", filename: param("filename") }
}
const MultipartRequired = new UnsupportedMediaType({ code: "MULTIPART_REQUIRED", key: "upload.multipartRequired" })

type FormError = PayloadTooLarge | BadRequest | ValidationFailed | UnsupportedMediaType

const convert = (error: MP.MultipartError, field: string | undefined): FormError => {
  if (error._tag !== "ReachedLimit") return Malformed
  switch (error.limit) {
    case "MaxPartSize":
      return new PayloadTooLarge({ code: "FILE_TOO_LARGE", key: "upload.tooLarge", params: { field: field ?? "" } })
    case "MaxParts":
      return Malformed
    default:
      return new PayloadTooLarge({ code: "REQUEST_TOO_LARGE", key: "upload.requestTooLarge" })
  }
}

/**
 * Reads the request's multipart/form-data body into memory: the expected text fields and files (other
 * parts are dropped unread into memory; a repeated expected field is a malformed request). A body that
 * is not multipart is a 415; a file over 5 MB a 413 (reading stops there); a broken or truncated body a 400.
 *
 * Runs the multipasta parser directly over the request's bytes rather than the platform's part
 * stream: that stream stalls when a body ends in the middle of a file, and reports limits as defects.
 */
export const readMultipart = (spec: MultipartSpec): Effect.Effect<MultipartForm, FormError, HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    if (!(request.headers["content-type"] ?? "").toLowerCase().startsWith("multipart/form-data")) return yield* MultipartRequired
    const limits = multipartLimits(spec.files.length)
    const expected = (key: string) => spec.files.includes(key) || spec.fields.includes(key)
    const fields: Record<string, string> = {}
    const files: Record<string, IncomingFile> = {}
    const seen = new Set<string>()
    let failure: FormError | undefined
    let done = false
    let current: string | undefined
    const fail = (error: FormError) => {
      failure ??= error
    }
    const firstTime = (key: string) => {
      if (expected(key) && seen.has(key)) {
        fail(Malformed)
        return false
      }
      seen.add(key)
      return true
    }
    const parser = MP.make({
      headers: request.headers,
      isFile: (info) => partNames(info).filename !== undefined || info.contentType === "application/octet-stream",
      maxParts: Option.getOrUndefined(limits.maxParts),
      maxFieldSize: limits.maxFieldSize,
      // The parser's count of a part includes a few framing bytes: it stops a file well past the limit,
      // and checkFile applies the exact 5 MB afterwards (both answer 413).
      maxPartSize: MAX_UPLOAD_BYTES + 64 * 1024,
      maxTotalSize: Option.getOrUndefined(limits.maxTotalSize),
      onField: (info, value) => {
        const { name } = partNames(info)
        if (failure !== undefined || !firstTime(name)) return
        if (spec.fields.includes(name)) {
          // Text fields follow the JSON payloads' rule for long texts (platform/text.ts).
          const text = normalizeLineBreaks(MP.decodeField(info, value))
          if (hasForbiddenControl(text, "long")) fail(invalid([issue(name, "request.controlCharacters")]))
          else fields[name] = text
        }
        // A file field sent without a file name arrives as text: it is not a file.
        else if (spec.files.includes(name)) fail(invalid([issue(name, "upload.notAFile")]))
      },
      onFile: (info) => {
        const { name, filename } = partNames(info)
        if (failure !== undefined || !firstTime(name)) return () => {}
        const keep = spec.files.includes(name)
        const chunks: Array<Uint8Array> = []
        current = name
        return (chunk) => {
          if (chunk !== null) {
            if (keep) chunks.push(chunk)
            return
          }
          if (keep) files[name] = { name: filename ?? "", bytes: new Uint8Array(Buffer.concat(chunks)) }
          current = undefined
        }
      },
      onError: (error) => fail(convert(error, current)),
      onDone: () => {
        done = true
      }
    })
    const incoming = NodeHttpServerRequest.toIncomingMessage(request)
    // Not the request's own stream: that one destroys the request when reading stops early, which
    // closes the connection before the answer is written (a client saw no answer at all).
    yield* NodeStream.fromReadable(
      () => incoming,
      () => Malformed,
      { closeOnDone: false }
    ).pipe(
      // Reading stops at the first problem...
      Stream.takeWhile(() => failure === undefined && !done),
      Stream.runForEach((chunk) => Effect.sync(() => parser.write(chunk))),
      Effect.catchAll(() => Effect.sync(() => fail(Malformed)))
    )
    // ...and the rest of the body is read and dropped (never kept), so that the answer reaches the client.
    if (!incoming.readableEnded) incoming.resume()
    if (failure === undefined && !done) parser.end()
    if (failure !== undefined) return yield* Effect.fail(failure)
    if (!done) return yield* Malformed
    return { fields, files }
  })
