// Shared links that show the thing (issue 14, item 6): a service's and a public profile's page carry
// their title, description and Open Graph / Twitter tags in the server's HTML, with a 1200×630 share
// image; a private or missing item gets the generic page.
import sharp from "sharp"
import { describe, expect, it } from "vitest"
import { SHARE_DESCRIPTION_MAX, shareHeadTags, shareText, wrapLines } from "../../src/app/share-pages"
import { newProvider } from "../support/accounts"
import { fileOf, png, sendForm } from "../profiles/support"
import { httpWorld } from "../support/world"

const meta = (html: string, key: string) =>
  new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`)
    .exec(html)?.[1]
    ?.replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')

describe("share tags (pure)", () => {
  it("cut descriptions at 160 characters on a word, and escape what they show", () => {
    const long = "Ménage complet ".repeat(30)
    const cut = shareText(long)
    expect(Array.from(cut).length).toBeLessThanOrEqual(SHARE_DESCRIPTION_MAX)
    expect(cut.endsWith("…")).toBe(true)
    const tags = shareHeadTags({
      title: 'Cours "pro" <script>alert(1)</script> & co',
      description: "d'accord",
      url: "http://x/services/1?lang=fr",
      type: "product",
      language: "fr",
      siteName: "Atelier <b>"
    })
    expect(tags).not.toContain("<script>")
    expect(tags).toContain("&lt;script&gt;")
    expect(tags).toContain("&quot;pro&quot;")
    expect(tags).toContain('content="summary"')
    expect(tags).toContain('<meta property="og:site_name" content="Atelier &lt;b&gt;" />')
  })
  it("wrap a title into at most three lines", () => {
    expect(wrapLines("Cours de guitare acoustique et électrique pour débutants et confirmés à domicile", 20, 3)).toHaveLength(3)
    expect(wrapLines("Court", 20, 3)).toEqual(["Court"])
  })
})

describe("the server's HTML for shared links", () => {
  const { server, api } = httpWorld()

  const page = async (path: string, language = "fr") => {
    const res = await fetch(`${server.url}${path}`, { headers: { "accept-language": language } })
    return { status: res.status, html: await res.text(), type: res.headers.get("content-type") }
  }

  it("a public service: its title, description, canonical URL with the language, and a 1200×630 image", async () => {
    const provider = await newProvider(server, api)
    const created = await api.post(
      "/api/services",
      {
        title: "Plomberie d'urgence & dépannage",
        description: `Intervention rapide pour fuites, robinets et chauffe-eau. ${"Travail soigné. ".repeat(20)}`,
        price: 80,
        duration: 60,
        location: "Québec, QC",
        lat: 46.81,
        lng: -71.21,
        categoryId: 7
      },
      { token: provider.token }
    )
    expect(created.status, created.text).toBe(201)
    const id = created.body.data.service.id as string
    const fr = await page(`/services/${id}`)
    expect(fr.status).toBe(200)
    expect(fr.type).toContain("text/html")
    expect(fr.html).toContain("<title>Plomberie d&#39;urgence &amp; dépannage · Proxima</title>")
    expect(meta(fr.html, "og:title")).toBe("Plomberie d&#39;urgence & dépannage · Proxima")
    expect(Array.from(meta(fr.html, "og:description")!).length).toBeLessThanOrEqual(SHARE_DESCRIPTION_MAX)
    expect(meta(fr.html, "og:description")).toMatch(/^Intervention rapide pour fuites/)
    expect(meta(fr.html, "og:url")).toMatch(new RegExp(`/services/${id}\\?lang=fr$`))
    expect(fr.html).toContain('<html lang="fr">')
    expect(meta(fr.html, "twitter:card")).toBe("summary_large_image")
    // The app still loads: the UI's root and scripts are in the page.
    expect(fr.html).toContain('<div id="root">')

    const en = await page(`/services/${id}`, "en-CA,en;q=0.9")
    expect(meta(en.html, "og:url")).toMatch(/\?lang=en$/)
    expect(en.html).toContain('<html lang="en">')
    const image = meta(en.html, "og:image")!
    const res = await fetch(image.replace(/^https?:\/\/[^/]+/, server.url))
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toBe("image/png")
    const info = await sharp(Buffer.from(await res.arrayBuffer())).metadata()
    expect([info.width, info.height, info.format]).toEqual([1200, 630, "png"])

    // A change of what the image shows gives it a new address (regenerated, never a stale cache).
    expect((await api.patch(`/api/services/${id}`, { price: 95 }, { token: provider.token })).status).toBe(200)
    expect(meta((await page(`/services/${id}`, "en")).html, "og:image")).not.toBe(image)
  })

  it("a service with photos shares its cover, regenerated when the cover changes", async () => {
    const provider = await newProvider(server, api)
    const created = await api.post(
      "/api/services",
      { title: "Ménage de bureaux", description: "Bureaux et commerces.", price: 40, duration: 60, location: "Montréal", categoryId: 5 },
      { token: provider.token }
    )
    const id = created.body.data.service.id as string
    const upload = async (color: string) => {
      const form = new FormData()
      form.append("photo", fileOf(await png(900, 600, color), "photo.png"))
      const reply = await sendForm(server, "POST", `/api/services/${id}/photos`, form, { token: provider.token })
      expect(reply.status, reply.text).toBe(201)
      return reply.body.data.photos as ReadonlyArray<{ id: string }>
    }
    const drawn = meta((await page(`/services/${id}`)).html, "og:image")!
    await upload("#ff0000")
    const [red, green] = await upload("#00ff00")
    const imageOf = async () => {
      const address = meta((await page(`/services/${id}`)).html, "og:image")!
      const res = await fetch(address.replace(/^https?:\/\/[^/]+/, server.url))
      expect(res.status).toBe(200)
      expect(res.headers.get("content-type")).toBe("image/jpeg")
      const bytes = Buffer.from(await res.arrayBuffer())
      const info = await sharp(bytes).metadata()
      expect([info.width, info.height, info.format]).toEqual([1200, 630, "jpeg"])
      // The top of the picture is the photo (the band with the title is at the bottom).
      const { channels } = await sharp(bytes).extract({ left: 0, top: 0, width: 1200, height: 300 }).stats()
      return { address, red: channels[0]!.mean, green: channels[1]!.mean }
    }
    const first = await imageOf()
    expect(first.address).not.toBe(drawn)
    expect(first.red).toBeGreaterThan(200)
    // The green photo becomes the cover: a new address and picture.
    const order = await api.call("PUT", `/api/services/${id}/photos/order`, {
      token: provider.token,
      json: { photoIds: [green!.id, red!.id] }
    })
    expect(order.status, order.text).toBe(200)
    const second = await imageOf()
    expect(second.address).not.toBe(first.address)
    expect(second.green).toBeGreaterThan(200)
    expect(second.red).toBeLessThan(50)
  })

  it("a missing service and a private profile get the generic page; a public profile its own", async () => {
    const missing = await page("/services/00000000-0000-4000-8000-000000000000")
    expect(missing.status).toBe(200)
    expect(missing.html).toContain("<title>Proxima</title>")
    expect(meta(missing.html, "og:title")).toBeUndefined()
    // The site's defaults: its name and its own share image.
    expect(meta(missing.html, "og:site_name")).toBe("Proxima")
    const site = meta(missing.html, "og:image")!
    expect(site).toBe(`${server.url.replace("127.0.0.1", "localhost")}/share/site.png`)
    const siteImage = await fetch(`${server.url}/share/site.png?lang=en`)
    expect(siteImage.headers.get("content-type")).toBe("image/png")
    expect((await sharp(Buffer.from(await siteImage.arrayBuffer())).metadata()).width).toBe(1200)
    expect((await fetch(`${server.url}/share/services/00000000-0000-4000-8000-000000000000.png`)).status).toBe(404)

    const person = await newProvider(server, api)
    expect(
      (await api.patch("/api/users/me", { bio: "Électricienne depuis 12 ans.", profileVisibility: "PUBLIC" }, { token: person.token }))
        .status
    ).toBe(200)
    const shown = await page(`/profile/${person.id}`)
    expect(meta(shown.html, "og:title")).toMatch(/· Proxima$/)
    expect(meta(shown.html, "og:description")).toBe("Électricienne depuis 12 ans.")
    expect(meta(shown.html, "og:type")).toBe("profile")

    expect((await api.patch("/api/users/me", { profileVisibility: "PRIVATE" }, { token: person.token })).status).toBe(200)
    const hidden = await page(`/profile/${person.id}`)
    expect(hidden.html).toContain("<title>Proxima</title>")
    expect(hidden.html).not.toContain("Électricienne")
    expect(meta(hidden.html, "og:title")).toBeUndefined()
    expect((await fetch(`${server.url}/share/profile/${person.id}.png`)).status).toBe(404)
  })
})
