import { Effect, Layer, Option } from "effect"
import * as crypto from "node:crypto"
import { UserRepository } from "../../identity"
import { toMajor } from "../../../platform/money"
import { zoneOf } from "../../../platform/time-zones"
import {
  type Category,
  isPublic,
  normalizeText,
  type ServiceListing,
  type ServicePhoto,
  type ServiceRecord,
  slugify,
  wordsOf
} from "../domain"
import { distanceKm } from "../geography"
import { matchesText, RELEVANCE_CANDIDATES, resultWindow } from "../search"
import { CategoryRepository, ServicePhotoRepository, type ServiceQuery, ServiceRepository } from "../ports"
import { referenceCents } from "../rates/domain"

/** The categories every database starts with (migrations/0003_catalogue.sql). */
export const seededCategories: ReadonlyArray<Category> = [
  { id: 1, slug: "it", nameFr: "Informatique", nameEn: "IT" },
  { id: 2, slug: "design", nameFr: "Design", nameEn: "Design" },
  { id: 3, slug: "marketing", nameFr: "Marketing", nameEn: "Marketing" },
  { id: 4, slug: "consultation", nameFr: "Consultation", nameEn: "Consulting" },
  { id: 5, slug: "menage", nameFr: "Ménage", nameEn: "Cleaning" },
  { id: 6, slug: "jardinage", nameFr: "Jardinage", nameEn: "Gardening" },
  { id: 7, slug: "reparation", nameFr: "Réparation", nameEn: "Repair" },
  { id: 8, slug: "transport", nameFr: "Transport", nameEn: "Transport" },
  { id: 9, slug: "formation", nameFr: "Formation", nameEn: "Training" }
]

const trigrams = (word: string) => {
  const padded = `  ${word} `
  const set = new Set<string>()
  for (let i = 0; i + 3 <= padded.length; i++) set.add(padded.slice(i, i + 3))
  return set
}
/** pg_trgm's similarity(): shared trigrams over all trigrams of both words. */
const similarity = (a: string, b: string) => {
  const ta = trigrams(a)
  const tb = trigrams(b)
  let shared = 0
  for (const t of ta) if (tb.has(t)) shared++
  return shared / (ta.size + tb.size - shared)
}

/**
 * In-memory catalogue with the same contracts as the Postgres one (the domain tests and the
 * in-memory stack run on it). Search semantics follow the SQL: accent- and case-insensitive words,
 * prefix on the last word, the same filters, sorts and id tiebreakers, and the same bounds.
 */
export const CatalogueMemoryAdapters = Layer.unwrapEffect(
  Effect.gen(function* () {
    const users = yield* UserRepository
    const categories = new Map<number, Category>(seededCategories.map((c) => [c.id, c]))
    let nextCategoryId = 100
    const services = new Map<string, ServiceRecord>()
    const terms = new Set<string>()
    let sequence = 0
    const createdOrder = new Map<string, number>()

    const normalizedName = (name: string) => normalizeText(name.trim())
    const byName = (name: string, orSlug: boolean) =>
      Option.fromNullable(
        [...categories.values()]
          .sort((a, b) => a.id - b.id)
          .find(
            (c) =>
              (orSlug && c.slug === name.trim().toLowerCase()) ||
              normalizedName(c.nameFr) === normalizedName(name) ||
              normalizedName(c.nameEn) === normalizedName(name)
          )
      )
    const findByName = (name: string) => byName(name, true)

    const listing = (s: ServiceRecord) =>
      Effect.map(users.findById(s.userId), (user): ServiceListing => {
        const u = Option.getOrUndefined(user)
        return {
          ...s,
          category: categories.get(s.categoryId)!,
          provider: {
            id: s.userId,
            firstName: u?.firstName ?? "",
            lastName: u?.lastName ?? "",
            isActive: u?.isActive ?? false,
            // Verification lives in the profile store, which the in-memory catalogue is not given (Postgres reads users.identity_verified_at).
            identityVerified: false,
            // Photos live in the profile store too: cards show initials.
            photo: null,
            timeZone: zoneOf(u?.timeZone)
          }
        }
      })

    // As search_vector: the title (weight A), the description (B) and the location (C).
    const documentWords = (s: ServiceRecord) => ({
      title: new Set(wordsOf(s.title)),
      description: new Set(wordsOf(s.description)),
      all: new Set([...wordsOf(s.title), ...wordsOf(s.description), ...wordsOf(s.location)])
    })
    const rank = (s: ServiceRecord, query: NonNullable<ServiceQuery["text"]>) => {
      const words = documentWords(s)
      let score = 0
      for (const term of query.terms) {
        for (const a of term.alternatives) {
          const hit = (set: Set<string>) => (a.prefix ? [...set].some((w) => w.startsWith(a.word)) : set.has(a.word))
          if (hit(words.title)) score += 1
          else if (hit(words.description)) score += 0.4
          else if (hit(words.all)) score += 0.2
        }
      }
      return score
    }
    const priceCents = (s: ServiceRecord) => Math.round(toMajor(s.priceMinor, s.currency) * 100)
    const newestFirst = (a: ServiceRecord, b: ServiceRecord) =>
      b.createdAt.getTime() - a.createdAt.getTime() || createdOrder.get(b.id)! - createdOrder.get(a.id)! || (b.id < a.id ? -1 : 1)
    const byId = (a: ServiceRecord, b: ServiceRecord) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

    const categoryRepository = Layer.succeed(CategoryRepository, {
      list: () => Effect.sync(() => [...categories.values()].sort((a, b) => a.id - b.id)),
      findById: (id) => Effect.sync(() => Option.fromNullable(categories.get(id))),
      findByName: (name) => Effect.sync(() => findByName(name)),
      findOrCreate: (name) =>
        Effect.sync(() => {
          const existing = byName(name, false)
          if (Option.isSome(existing)) return existing.value
          const base = slugify(name) || "categorie"
          let slug = base
          for (let n = 2; [...categories.values()].some((c) => c.slug === slug); n++) slug = `${base}-${n}`
          const category = { id: nextCategoryId++, slug, nameFr: name, nameEn: name }
          categories.set(category.id, category)
          return category
        }),
      publicCounts: () =>
        Effect.map(Effect.forEach([...services.values()], listing), (all) => {
          const counts = new Map<number, number>()
          for (const s of all) if (isPublic(s)) counts.set(s.categoryId, (counts.get(s.categoryId) ?? 0) + 1)
          return counts as ReadonlyMap<number, number>
        })
    })

    const serviceRepository = Layer.succeed(ServiceRepository, {
      search: (query) =>
        Effect.gen(function* () {
          const all = yield* Effect.forEach([...services.values()], listing)
          let matches = all.filter((s) => {
            if (!isPublic(s)) return false
            if (query.text && !matchesText(documentWords(s).all, query.text)) return false
            if (query.categoryId !== undefined && s.categoryId !== query.categoryId) return false
            if (query.providerId !== undefined && s.userId !== query.providerId) return false
            if (query.minPriceCents !== undefined && priceCents(s) < query.minPriceCents) return false
            if (query.maxPriceCents !== undefined && priceCents(s) > query.maxPriceCents) return false
            if (query.priceRanges !== undefined) {
              const range = query.priceRanges.find((r) => r.currency === s.currency)
              if (range === undefined || priceCents(s) < range.minCents || (range.maxCents !== undefined && priceCents(s) > range.maxCents))
                return false
            }
            if (query.geo && distanceKm(query.geo, s) > query.geo.radiusKm) return false
            return true
          })
          // Price sorts compare euro cents (as the SQL does); a currency without a rate comes last.
          const priceKey = (s: ServiceRecord) => {
            if (query.rates === undefined) return 0
            const rate = query.rates.get(s.currency)
            return rate === undefined ? (query.sort === "price_asc" ? Infinity : -Infinity) : referenceCents(priceCents(s), rate)
          }
          const geo = query.geo
          const withDistance = geo ? matches.map((s) => ({ ...s, distanceKm: distanceKm(geo, s) })) : matches
          let ordered: Array<ServiceListing>
          switch (query.sort) {
            case "relevance": {
              const text = query.text!
              const candidates = [...withDistance].sort(newestFirst).slice(0, RELEVANCE_CANDIDATES)
              matches = candidates
              ordered = candidates.sort((a, b) => rank(b, text) - rank(a, text) || newestFirst(a, b))
              break
            }
            case "distance":
              ordered = [...withDistance].sort((a, b) => a.distanceKm! - b.distanceKm! || byId(a, b))
              break
            case "price_asc":
              ordered = [...withDistance].sort((a, b) => priceKey(a) - priceKey(b) || priceCents(a) - priceCents(b) || byId(a, b))
              break
            case "price_desc":
              ordered = [...withDistance].sort((a, b) => priceKey(b) - priceKey(a) || priceCents(b) - priceCents(a) || byId(b, a))
              break
            case "rating":
              ordered = [...withDistance].sort((a, b) => b.rating - a.rating || b.reviewCount - a.reviewCount || byId(b, a))
              break
            default:
              ordered = [...withDistance].sort(newestFirst)
          }
          const window = resultWindow({ ...query, hasText: query.text !== undefined })
          const total = query.withTotal ? Math.min(matches.length, window) : 0
          return {
            services: ordered.slice(0, window).slice(query.offset, query.offset + query.limit),
            total,
            exact: !query.withTotal || total < window
          }
        }),
      similarWords: (words) =>
        Effect.sync(() => {
          const similar = new Map<string, ReadonlyArray<string>>()
          for (const { prefix, word } of words) {
            if (terms.has(word) || (prefix && [...terms].some((t) => t.startsWith(word)))) continue
            const near = [...terms]
              .filter((t) => t !== word && similarity(t, word) >= 0.3)
              .sort((a, b) => similarity(word, b) - similarity(word, a) || (a < b ? -1 : 1))
              .slice(0, 3)
            if (near.length > 0) similar.set(word, near)
          }
          return similar as ReadonlyMap<string, ReadonlyArray<string>>
        }),
      findById: (id) => {
        const s = services.get(id)
        return s ? Effect.map(listing(s), Option.some) : Effect.succeed(Option.none())
      },
      listOwnedBy: (userId) =>
        Effect.forEach([...services.values()].filter((s) => s.userId === userId && s.archivedAt === null).sort(newestFirst), listing),
      insert: (input) =>
        Effect.sync(() => {
          const now = new Date()
          const record: ServiceRecord = {
            id: crypto.randomUUID(),
            userId: input.userId,
            categoryId: input.categoryId,
            title: input.title,
            description: input.description,
            priceMinor: input.priceMinor,
            currency: input.currency,
            durationMinutes: input.durationMinutes,
            location: input.location,
            lat: input.lat,
            lng: input.lng,
            status: input.status,
            archivedAt: null,
            disabledByAdminAt: null,
            rating: 0,
            reviewCount: 0,
            photos: [],
            createdAt: now,
            updatedAt: now
          }
          services.set(record.id, record)
          createdOrder.set(record.id, ++sequence)
          for (const w of [...wordsOf(record.title), ...wordsOf(record.description), ...wordsOf(record.location)])
            if (w.length >= 3) terms.add(w)
          return record
        }),
      update: (id, patch) =>
        Effect.sync(() => {
          const s = services.get(id)
          if (!s) return
          const updated = { ...s, ...patch, updatedAt: new Date() }
          services.set(id, updated)
          for (const w of [...wordsOf(updated.title), ...wordsOf(updated.description), ...wordsOf(updated.location)])
            if (w.length >= 3) terms.add(w)
        }),
      setStatus: (id, status, byAdmin) =>
        Effect.sync(() => {
          const s = services.get(id)
          if (!s) return
          const disabledByAdminAt = byAdmin === undefined ? s.disabledByAdminAt : byAdmin && status === "INACTIVE" ? new Date() : null
          services.set(id, { ...s, status, disabledByAdminAt, updatedAt: new Date() })
        }),
      archive: (id) =>
        Effect.sync(() => {
          const s = services.get(id)
          if (s && s.archivedAt === null) services.set(id, { ...s, archivedAt: new Date(), updatedAt: new Date() })
        }),
      recordRating: (id, rating) =>
        Effect.sync(() => {
          const s = services.get(id)
          if (s) {
            const rated = Math.round(((s.rating * s.reviewCount + rating) / (s.reviewCount + 1)) * 100) / 100
            services.set(id, { ...s, rating: rated, reviewCount: s.reviewCount + 1 })
          }
        })
    })
    const setPhotos = (serviceId: string, photos: ReadonlyArray<ServicePhoto>) => {
      const s = services.get(serviceId)
      if (s) services.set(serviceId, { ...s, photos })
    }
    const photosOf = (serviceId: string) => services.get(serviceId)?.photos ?? []
    const photoRepository = Layer.succeed(ServicePhotoRepository, {
      list: (serviceId) => Effect.sync(() => photosOf(serviceId)),
      add: (serviceId, photo, max) =>
        Effect.sync(() => {
          if (!services.has(serviceId) || photosOf(serviceId).length >= max) return false
          setPhotos(serviceId, [...photosOf(serviceId), photo])
          return true
        }),
      remove: (serviceId, photoId) =>
        Effect.sync(() => {
          const found = photosOf(serviceId).find((p) => p.id === photoId)
          if (found)
            setPhotos(
              serviceId,
              photosOf(serviceId).filter((p) => p.id !== photoId)
            )
          return Option.fromNullable(found)
        }),
      reorder: (serviceId, photoIds) =>
        Effect.sync(() =>
          setPhotos(
            serviceId,
            photoIds.flatMap((id) => photosOf(serviceId).filter((p) => p.id === id))
          )
        ),
      removeAll: (serviceId) =>
        Effect.sync(() => {
          const all = photosOf(serviceId)
          setPhotos(serviceId, [])
          return all
        })
    })
    return Layer.mergeAll(categoryRepository, serviceRepository, photoRepository)
  })
)
