// Shared links that show the thing (issue 14): /services/{id} and /profile/{id} answered with the
// page's title, description and Open Graph / Twitter tags already in the HTML (social networks do not
// run the UI's JavaScript), and a 1200×630 share image per service and public profile. A private,
// hidden or unknown item gets the generic page: nothing private is ever put in a tag.
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Option } from "effect"
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import sharp from "sharp"
import { Catalogue, type ServiceListing } from "../modules/catalogue"
import { isPublic } from "../modules/catalogue/domain"
import { Profiles, type VisibleProfile } from "../modules/identity/profile/service"
import { AppConfig } from "../platform/config"
import type { Brand } from "../platform/brand"
import { brandIndex } from "../platform/http/static"
import { defaultLanguage, type Language, languageFromHeader, Languages, translate } from "../platform/messages"
import { formatMoney } from "../platform/money"

export const SHARE_DESCRIPTION_MAX = 160
export const SHARE_IMAGE = { width: 1200, height: 630 } as const

interface ShareHead {
  readonly title: string
  readonly description: string
  /** The canonical address, with its language. */
  readonly url: string
  readonly image?: string | undefined
  readonly type: "website" | "profile" | "product"
  readonly language: Language
  readonly siteName: string
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;")

/** At most `max` characters on one line, cut at a word with "…". */
export const shareText = (text: string, max = SHARE_DESCRIPTION_MAX) => {
  const clean = text.replace(/\s+/g, " ").trim()
  const chars = Array.from(clean)
  if (chars.length <= max) return clean
  const head = chars.slice(0, max - 1).join("")
  const space = head.lastIndexOf(" ")
  return `${(space > max / 2 ? head.slice(0, space) : head).replace(/[\s,;:.!?-]+$/u, "")}…`
}

/** The tags of a page's head (escaped), in place of the generic title and description of index.html. */
export const shareHeadTags = (head: ShareHead): string =>
  [
    `<title>${escapeHtml(head.title)}</title>`,
    `<meta name="description" content="${escapeHtml(head.description)}" />`,
    `<link rel="canonical" href="${escapeHtml(head.url)}" />`,
    `<meta property="og:title" content="${escapeHtml(head.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(head.description)}" />`,
    `<meta property="og:type" content="${head.type}" />`,
    `<meta property="og:url" content="${escapeHtml(head.url)}" />`,
    `<meta property="og:locale" content="${head.language === "fr" ? "fr_CA" : "en_CA"}" />`,
    `<meta property="og:site_name" content="${escapeHtml(head.siteName)}" />`,
    ...(head.image
      ? [
          `<meta property="og:image" content="${escapeHtml(head.image)}" />`,
          `<meta property="og:image:width" content="${SHARE_IMAGE.width}" />`,
          `<meta property="og:image:height" content="${SHARE_IMAGE.height}" />`,
          `<meta name="twitter:card" content="summary_large_image" />`,
          `<meta name="twitter:image" content="${escapeHtml(head.image)}" />`
        ]
      : [`<meta name="twitter:card" content="summary" />`]),
    `<meta name="twitter:title" content="${escapeHtml(head.title)}" />`,
    `<meta name="twitter:description" content="${escapeHtml(head.description)}" />`
  ].join("\n    ")

/**
 * index.html with `head` in place of its generic share block (title, description, site defaults, up to
 * `<!--/share-->`), and its language. The tags are given by a function: a replacement string would read
 * `$'`, `` $` `` or `$&` in a title as patterns.
 */
export const withShareHead = (indexHtml: string, head: ShareHead) =>
  indexHtml
    .replace(/<html lang="[a-z]+">/, () => `<html lang="${head.language}">`)
    .replace(/<title>[^<]*<\/title>[\s\S]*?<!--\/share-->/, () => shareHeadTags(head))

// ---- Share images ----------------------------------------------------------------------------

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

/** Words into at most `lines` lines of at most `width` characters (the last one cut with "…"). */
export const wrapLines = (text: string, width: number, lines: number): ReadonlyArray<string> => {
  const out: Array<string> = []
  let line = ""
  for (const word of text.replace(/\s+/g, " ").trim().split(" ")) {
    const next = line === "" ? word : `${line} ${word}`
    if (Array.from(next).length <= width) line = next
    else {
      if (line !== "") out.push(line)
      line = Array.from(word).slice(0, width).join("")
    }
  }
  if (line !== "") out.push(line)
  if (out.length <= lines) return out
  const kept = out.slice(0, lines)
  kept[lines - 1] = `${Array.from(kept[lines - 1]!)
    .slice(0, width - 1)
    .join("")}…`
  return kept
}

/** A 1200×630 card: a heading (up to three lines), a line of facts and a footer, drawn as SVG. */
const cardSvg = (card: { readonly heading: string; readonly facts: string; readonly footer: string }) => {
  // 26 characters of 64 px bold fit the card's 1000 px of text.
  const lines = wrapLines(card.heading, 26, 3)
  const font = "DejaVu Sans, Liberation Sans, Arial, sans-serif"
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SHARE_IMAGE.width}" height="${SHARE_IMAGE.height}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1e3a8a"/><stop offset="1" stop-color="#2563eb"/></linearGradient></defs>
  <rect width="100%" height="100%" fill="url(#g)"/>
  <rect x="60" y="60" width="1080" height="510" rx="28" fill="#ffffff" fill-opacity="0.08"/>
  ${lines.map((l, i) => `<text x="100" y="${190 + i * 80}" font-family="${font}" font-size="64" font-weight="700" fill="#ffffff">${escapeXml(l)}</text>`).join("\n  ")}
  <text x="100" y="${190 + lines.length * 80 + 40}" font-family="${font}" font-size="40" fill="#dbeafe">${escapeXml(card.facts)}</text>
  <text x="100" y="530" font-family="${font}" font-size="32" fill="#bfdbfe">${escapeXml(card.footer)}</text>
</svg>`
}

/** A drawn card (PNG), or a cover photo (JPEG: a photograph as PNG would weigh a megabyte). */
interface Rendered {
  readonly bytes: Buffer
  readonly contentType: "image/png" | "image/jpeg"
}

/** Rendered images by item and version: regenerated when what they show changes. */
const IMAGE_CACHE_MAX = 500
const images = new Map<string, Promise<Rendered>>()
const renderCached = (key: string, render: () => Promise<Rendered>) => {
  const hit = images.get(key)
  if (hit) return hit
  if (images.size >= IMAGE_CACHE_MAX) images.delete(images.keys().next().value!)
  const rendered = render()
  images.set(key, rendered)
  rendered.catch(() => images.delete(key))
  return rendered
}

const drawn = (svg: string): Promise<Rendered> =>
  sharp(Buffer.from(svg))
    .png({ compressionLevel: 9 })
    .toBuffer()
    .then((bytes) => ({ bytes, contentType: "image/png" }))

/** The cover photo filling the 1200×630 frame, with the card's heading and facts on a dark band. */
const coverCard = async (photo: Uint8Array, card: { readonly heading: string; readonly facts: string }): Promise<Rendered> => {
  const font = "DejaVu Sans, Liberation Sans, Arial, sans-serif"
  const [heading] = wrapLines(card.heading, 34, 1)
  const band = `<svg xmlns="http://www.w3.org/2000/svg" width="${SHARE_IMAGE.width}" height="170">
  <rect width="100%" height="100%" fill="#0f172a" fill-opacity="0.78"/>
  <text x="60" y="72" font-family="${font}" font-size="52" font-weight="700" fill="#ffffff">${escapeXml(heading ?? "")}</text>
  <text x="60" y="132" font-family="${font}" font-size="34" fill="#dbeafe">${escapeXml(card.facts)}</text>
</svg>`
  const bytes = await sharp(photo)
    .resize(SHARE_IMAGE.width, SHARE_IMAGE.height, { fit: "cover", position: "attention" })
    .composite([{ input: Buffer.from(band), top: SHARE_IMAGE.height - 170, left: 0 }])
    .jpeg({ quality: 82, mozjpeg: true })
    .toBuffer()
  return { bytes, contentType: "image/jpeg" }
}

const stars = (rating: number, reviews: number) => (reviews > 0 ? `★ ${rating.toFixed(1)} (${reviews})` : "")

const serviceCard = (s: ServiceListing, language: Language, siteName: string) => ({
  heading: s.title,
  facts: [`${formatMoney(language, s.priceMinor, s.currency)} / h`, stars(s.rating, s.reviewCount), s.location]
    .filter(Boolean)
    .join("  ·  "),
  footer: `${s.provider.firstName} ${s.provider.lastName}  ·  ${siteName}`
})
const profileCard = (p: VisibleProfile, siteName: string) => ({
  heading: `${p.user.firstName} ${p.user.lastName}`,
  facts: [p.profile.specialities.slice(0, 3).join(", "), stars(p.statistics.averageRating, p.statistics.totalReviews)]
    .filter(Boolean)
    .join("  ·  "),
  footer: [p.profile.city, siteName].filter(Boolean).join("  ·  ")
})

// ---- Routes ----------------------------------------------------------------------------------

const languageOf = (request: HttpServerRequest.HttpServerRequest): Language => {
  const asked = new URL(request.url, "http://x").searchParams.get("lang")
  return (Languages as ReadonlyArray<string>).includes(asked ?? "")
    ? (asked as Language)
    : (languageFromHeader(request.headers["accept-language"]) ?? defaultLanguage)
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const versionOf = (parts: ReadonlyArray<unknown>) =>
  crypto.createHash("sha1").update(JSON.stringify(parts)).digest("base64url").slice(0, 16)

/** A public service, or None (unknown, hidden, private). */
const publicService = (id: string) =>
  Effect.flatMap(Catalogue, (catalogue) =>
    UUID.test(id)
      ? catalogue.get(id, undefined, undefined).pipe(
          Effect.map((s) => (isPublic({ ...s, provider: { isActive: s.provider.isActive } }) ? Option.some(s) : Option.none())),
          Effect.orElseSucceed(() => Option.none<ServiceListing>())
        )
      : Effect.succeed(Option.none<ServiceListing>())
  )
/** A profile anyone may see (PUBLIC), or None. */
const publicProfile = (id: string) =>
  Effect.flatMap(Profiles, (profiles) =>
    UUID.test(id)
      ? profiles.view(undefined, id).pipe(
          Effect.map(Option.some),
          Effect.orElseSucceed(() => Option.none<VisibleProfile>())
        )
      : Effect.succeed(Option.none<VisibleProfile>())
  )

const imageAnswer = (image: Rendered, etag: string) =>
  HttpServerResponse.uint8Array(image.bytes, {
    contentType: image.contentType,
    headers: { "cache-control": "public, max-age=3600", etag: `"${etag}"` }
  })

/** A shared page: index.html with the item's head, or the generic page when it is not public. */
const sharePage = <A, R>(
  uiRoot: string,
  find: (id: string) => Effect.Effect<Option.Option<A>, never, R>,
  headOf: (item: A, language: Language, config: Brand) => Omit<ShareHead, "language" | "siteName">
) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const { id } = yield* HttpRouter.params
    const config = yield* AppConfig
    const language = languageOf(request)
    const html = brandIndex(indexHtml(uiRoot), config)
    const found = yield* find(id ?? "")
    return page(
      Option.isNone(found) ? html : withShareHead(html, { ...headOf(found.value, language, config), language, siteName: config.siteName })
    )
  })

/** A shared item's image (`{id}.png`), rendered once per version; 404 when it is not public. */
const shareImage = <A, R, R2>(
  find: (id: string) => Effect.Effect<Option.Option<A>, never, R>,
  imageOf: (
    item: A,
    language: Language,
    siteName: string
  ) => Effect.Effect<{ readonly key: string; readonly version: string; readonly render: () => Promise<Rendered> }, never, R2>
) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const { id } = yield* HttpRouter.params
    const { siteName } = yield* AppConfig
    const found = yield* find((id ?? "").replace(/\.png$/, ""))
    if (Option.isNone(found)) return HttpServerResponse.text("Not found", { status: 404 })
    const image = yield* imageOf(found.value, languageOf(request), siteName)
    const rendered = yield* Effect.promise(() => renderCached(`${image.key}:${image.version}`, image.render))
    return imageAnswer(rendered, image.version)
  })

/**
 * The share pages and images (path → handler), for the router before the UI's catch-all. `uiRoot`
 * holds the built index.html (read once).
 */
export const shareRoutes = (
  uiRoot: string
): ReadonlyArray<
  readonly [
    HttpRouter.PathInput,
    Effect.Effect<
      HttpServerResponse.HttpServerResponse,
      never,
      AppConfig | Catalogue | Profiles | HttpServerRequest.HttpServerRequest | HttpRouter.RouteContext
    >
  ]
> => [
  [
    "/services/:id",
    sharePage(uiRoot, publicService, (s, language, { publicUrl, siteName }) => ({
      title: `${s.title} · ${siteName}`,
      description: shareText(s.description),
      url: `${publicUrl}/services/${s.id}?lang=${language}`,
      image: `${publicUrl}/share/services/${s.id}.png?lang=${language}&v=${serviceVersion(s, language, siteName)}`,
      type: "product"
    }))
  ],
  [
    "/profile/:id",
    sharePage(uiRoot, publicProfile, (p, language, { publicUrl, siteName }) => {
      const name = `${p.user.firstName} ${p.user.lastName}`
      return {
        title: `${name} · ${siteName}`,
        description: shareText(
          p.profile.bio || p.profile.description || translate(language, "share.profileDescription", { name, site: siteName })
        ),
        url: `${publicUrl}/profile/${p.user.id}?lang=${language}`,
        image: `${publicUrl}/share/profile/${p.user.id}.png?v=${profileVersion(p, siteName)}`,
        type: "profile"
      }
    })
  ],
  [
    "/share/services/:id",
    shareImage(publicService, (s, language, siteName) =>
      Effect.map(Catalogue, (catalogue) => {
        const card = serviceCard(s, language, siteName)
        const cover = s.photos[0]
        const largest = cover?.files[cover.files.length - 1]
        return {
          key: `s:${s.id}`,
          version: serviceVersion(s, language, siteName),
          // The cover photo when there is one (the drawn card if its file cannot be read).
          render: () =>
            cover && largest
              ? Effect.runPromise(catalogue.photoFile(s.id, cover.id, String(largest.size))).then(
                  (bytes) => coverCard(bytes, card),
                  () => drawn(cardSvg(card))
                )
              : drawn(cardSvg(card))
        }
      })
    )
  ],
  [
    "/share/profile/:id",
    shareImage(publicProfile, (p, _language, siteName) =>
      Effect.succeed({
        key: `p:${p.user.id}`,
        version: profileVersion(p, siteName),
        render: () => drawn(cardSvg(profileCard(p, siteName)))
      })
    )
  ],
  // The site's own share image (index.html's default og:image): its name and tagline, in the asked language.
  [
    "/share/site.png",
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const { siteName, publicUrl } = yield* AppConfig
      const language = languageOf(request)
      const card = { heading: siteName, facts: translate(language, "share.siteTagline"), footer: publicUrl.replace(/^https?:\/\//, "") }
      const version = versionOf([card])
      const rendered = yield* Effect.promise(() => renderCached(`site:${version}`, () => drawn(cardSvg(card))))
      return imageAnswer(rendered, version)
    })
  ]
]

const serviceVersion = (s: ServiceListing, language: Language, siteName: string) =>
  versionOf([
    s.title,
    s.priceMinor,
    s.currency,
    s.rating,
    s.reviewCount,
    s.location,
    s.provider.firstName,
    s.provider.lastName,
    language,
    siteName,
    // A new cover (added, deleted, moved) is a new photo id.
    s.photos[0]?.id ?? null
  ])
const profileVersion = (p: VisibleProfile, siteName: string) =>
  versionOf([
    siteName,
    p.user.firstName,
    p.user.lastName,
    p.profile.specialities,
    p.profile.city,
    p.statistics.averageRating,
    p.statistics.totalReviews
  ])

const page = (html: string) =>
  HttpServerResponse.text(html, { contentType: "text/html; charset=utf-8", headers: { "cache-control": "no-cache" } })

let index: { root: string; html: string } | undefined
const indexHtml = (root: string) => {
  if (index?.root !== root) {
    // Without a built UI (a server started from sources), the source of the same page.
    const file = [path.join(root, "index.html"), path.join(root, "..", "..", "ui", "index.html")].find((f) => fs.existsSync(f))
    index = {
      root,
      html: file
        ? fs.readFileSync(file, "utf8")
        : '<!doctype html>\n<html lang="fr">\n  <head>\n    <title>%SITE_NAME%</title>\n    <!--/share-->\n  </head>\n  <body><div id="root"></div></body>\n</html>'
    }
  }
  return index.html
}
