import { Effect, Option } from "effect"
import sharp from "sharp"
import { Identity } from "../identity"
import { newId } from "../../platform/clock"
import { toMinor } from "../../platform/money"
import { newStorageKey, Storage } from "../../platform/storage"
import { type Rendition, webpRenditions } from "../../platform/uploads"
import { ServicePhotoRepository, ServiceRepository } from "./ports"
import { MAX_SERVICE_PHOTOS, PHOTO_SIZES } from "./rules"

export const demoCities = {
  montreal: { location: "Montréal, QC", lat: 45.5019, lng: -73.5674, currency: "CAD" },
  quebec: { location: "Québec, QC", lat: 46.8139, lng: -71.208, currency: "CAD" },
  toronto: { location: "Toronto, ON", lat: 43.6532, lng: -79.3832, currency: "CAD" },
  vancouver: { location: "Vancouver, BC", lat: 49.2827, lng: -123.1207, currency: "CAD" },
  paris: { location: "Paris, France", lat: 48.8566, lng: 2.3522, currency: "EUR" },
  lyon: { location: "Lyon, France", lat: 45.764, lng: 4.8357, currency: "EUR" },
  bordeaux: { location: "Bordeaux, France", lat: 44.8378, lng: -0.5792, currency: "EUR" }
} as const

interface DemoService {
  readonly provider: string
  readonly city: keyof typeof demoCities
  readonly categoryId: number
  readonly title: string
  readonly description: string
  /** Hourly, major units. */
  readonly price: number
  readonly duration: number
  /** A few metres off the city centre, so distances differ. */
  readonly offset?: readonly [number, number]
}

const MARIE = "marie.dubois@marketplace.local"
const JEAN = "jean.tremblay@marketplace.local"
const EMILY = "emily.clark@marketplace.local"

/** Bilingual demo services of the seeded providers (spec: realistic, accented, several cities and prices). */
export const demoServices: ReadonlyArray<DemoService> = [
  {
    provider: MARIE,
    city: "paris",
    categoryId: 5,
    title: "Ménage à domicile écologique",
    description:
      "Entretien complet de votre logement avec des produits écologiques : cuisine, salle de bain, dépoussiérage et sols. Matériel fourni.",
    price: 35,
    duration: 120,
    offset: [0.012, -0.02]
  },
  {
    provider: MARIE,
    city: "paris",
    categoryId: 5,
    title: "Grand ménage de printemps",
    description: "Nettoyage en profondeur avant l'été : vitres, fours, réfrigérateur, plinthes et armoires. Idéal après un déménagement.",
    price: 45,
    duration: 240,
    offset: [-0.018, 0.011]
  },
  {
    provider: MARIE,
    city: "lyon",
    categoryId: 2,
    title: "Création de logo et identité visuelle",
    description:
      "Conception d'un logo, d'une palette de couleurs et d'une charte graphique pour votre entreprise. Trois propositions et révisions incluses.",
    price: 75,
    duration: 60,
    offset: [0.004, 0.006]
  },
  {
    provider: MARIE,
    city: "lyon",
    categoryId: 9,
    title: "Cours de français langue seconde",
    description:
      "Leçons particulières de français pour adultes, du niveau débutant à avancé. Préparation au TEFAQ et conversation au quotidien.",
    price: 40,
    duration: 60,
    offset: [0.021, 0.017]
  },
  {
    provider: MARIE,
    city: "paris",
    categoryId: 2,
    title: "Retouche photo et mise en page",
    description: "Retouche de portraits, détourage de produits et mise en page de brochures ou de menus pour restaurants.",
    price: 55,
    duration: 60,
    offset: [0.01, 0.015]
  },
  {
    provider: MARIE,
    city: "paris",
    categoryId: 5,
    title: "Repassage et entretien du linge",
    description: "Repassage soigné de chemises et de linge de maison, pliage et rangement. Service à domicile dans tout Paris intra-muros.",
    price: 28,
    duration: 90,
    offset: [-0.012, -0.008]
  },
  {
    provider: MARIE,
    city: "paris",
    categoryId: 3,
    title: "Stratégie réseaux sociaux pour commerces",
    description: "Audit de vos comptes Instagram et Facebook, calendrier éditorial et conseils pour attirer une clientèle de quartier.",
    price: 90,
    duration: 120,
    offset: [0.005, -0.02]
  },
  {
    provider: MARIE,
    city: "lyon",
    categoryId: 4,
    title: "Conseil en décoration d'intérieur",
    description: "Visite à domicile, choix des couleurs, du mobilier et de l'éclairage. Plan d'aménagement remis sous une semaine.",
    price: 65,
    duration: 90,
    offset: [0.008, 0.004]
  },
  {
    provider: MARIE,
    city: "bordeaux",
    categoryId: 9,
    title: "Atelier d'œnologie pour débutants",
    description: "Initiation à la dégustation des vins de Bordeaux : cépages, arômes et accords mets-vins, en petit groupe.",
    price: 50,
    duration: 120,
    offset: [-0.006, 0.009]
  },
  {
    provider: MARIE,
    city: "bordeaux",
    categoryId: 6,
    title: "Taille de haies et entretien de jardin",
    description: "Taille de haies, tonte de pelouse, désherbage manuel et évacuation des déchets verts. Devis gratuit.",
    price: 38,
    duration: 180,
    offset: [0.014, -0.011]
  },

  {
    provider: JEAN,
    city: "quebec",
    categoryId: 7,
    title: "Réparation de vélos à domicile",
    description: "Mise au point complète, réglage des freins et des vitesses, changement de chambre à air. Je me déplace dans tout Québec.",
    price: 45,
    duration: 60,
    offset: [0.01, 0.012]
  },
  {
    provider: JEAN,
    city: "quebec",
    categoryId: 6,
    title: "Déneigement et entretien paysager",
    description:
      "Déneigement d'entrées et de toitures l'hiver, entretien de pelouses et plates-bandes l'été. Contrats saisonniers possibles.",
    price: 55,
    duration: 120,
    offset: [-0.02, 0.01]
  },
  {
    provider: JEAN,
    city: "quebec",
    categoryId: 8,
    title: "Déménagement et transport de meubles",
    description: "Camion de 16 pieds et deux déménageurs pour vos petits déménagements, livraisons de meubles et débarras.",
    price: 110,
    duration: 180,
    offset: [0.005, -0.015]
  },
  {
    provider: JEAN,
    city: "quebec",
    categoryId: 1,
    title: "Dépannage informatique et installation réseau",
    description: "Diagnostic d'ordinateurs lents, suppression de virus, installation de routeurs Wi-Fi et d'imprimantes, sauvegardes.",
    price: 60,
    duration: 60,
    offset: [0.017, 0.003]
  },
  {
    provider: JEAN,
    city: "montreal",
    categoryId: 7,
    title: "Plomberie : réparation de fuites et robinets",
    description:
      "Réparation de fuites, remplacement de robinets, débouchage d'éviers et installation de chasses d'eau. Intervention rapide.",
    price: 85,
    duration: 60,
    offset: [-0.01, 0.025]
  },
  {
    provider: JEAN,
    city: "montreal",
    categoryId: 7,
    title: "Électricien résidentiel certifié",
    description: "Ajout de prises, installation de luminaires et de thermostats, mise aux normes du panneau électrique. Licence RBQ.",
    price: 95,
    duration: 60,
    offset: [0.03, -0.01]
  },
  {
    provider: JEAN,
    city: "montreal",
    categoryId: 4,
    title: "Consultation en rénovation résidentielle",
    description: "Évaluation de votre projet de rénovation, estimation des coûts, choix des matériaux et planification des travaux.",
    price: 120,
    duration: 90,
    offset: [-0.025, -0.015]
  },
  {
    provider: JEAN,
    city: "montreal",
    categoryId: 1,
    title: "Création de site web vitrine",
    description: "Site web responsive pour artisans et commerçants : conception, rédaction, référencement local et mise en ligne.",
    price: 70,
    duration: 120,
    offset: [-0.01, -0.007]
  },
  {
    provider: JEAN,
    city: "quebec",
    categoryId: 8,
    title: "Transport de colis et courses urbaines",
    description: "Livraison à vélo cargo dans Lyon et Villeurbanne : colis, documents et courses du quotidien, le jour même.",
    price: 25,
    duration: 60,
    offset: [0.006, 0.012]
  },
  {
    provider: JEAN,
    city: "montreal",
    categoryId: 3,
    title: "Référencement et publicité en ligne",
    description: "Optimisation de votre fiche d'établissement, campagnes de publicité locales et rapport mensuel de résultats.",
    price: 80,
    duration: 60,
    offset: [0.009, 0.002]
  },

  {
    provider: EMILY,
    city: "toronto",
    categoryId: 1,
    title: "Web development with React and Node",
    description: "Custom web applications, bug fixing and performance audits for small businesses. TypeScript, React, Node and PostgreSQL.",
    price: 120,
    duration: 60,
    offset: [0.01, -0.012]
  },
  {
    provider: EMILY,
    city: "toronto",
    categoryId: 5,
    title: "Deep house cleaning",
    description:
      "Top-to-bottom cleaning of kitchens, bathrooms and living areas, inside the oven and fridge on request. Eco-friendly products.",
    price: 40,
    duration: 180,
    offset: [-0.02, 0.015]
  },
  {
    provider: EMILY,
    city: "toronto",
    categoryId: 9,
    title: "Piano lessons for beginners",
    description:
      "Friendly piano lessons for children and adults: reading music, technique and your favourite songs. First lesson at a discount.",
    price: 55,
    duration: 60,
    offset: [0.015, 0.02]
  },
  {
    provider: EMILY,
    city: "toronto",
    categoryId: 3,
    title: "Email marketing campaigns",
    description: "Newsletter design, audience segmentation and automated email sequences that turn visitors into customers.",
    price: 85,
    duration: 60,
    offset: [0.004, 0.03]
  },
  {
    provider: EMILY,
    city: "toronto",
    categoryId: 6,
    title: "Garden design and planting",
    description: "Native plant gardens, vegetable beds and seasonal planting plans for West Coast yards and balconies.",
    price: 65,
    duration: 120,
    offset: [0.012, 0.01]
  },
  {
    provider: EMILY,
    city: "toronto",
    categoryId: 4,
    title: "Small business consulting",
    description: "Business plans, pricing strategy and cash-flow forecasts for freelancers and new small businesses.",
    price: 150,
    duration: 60,
    offset: [-0.008, -0.02]
  },
  {
    provider: EMILY,
    city: "toronto",
    categoryId: 8,
    title: "Airport transfers and moving help",
    description: "Reliable rides to YVR with luggage, plus a van and a helping hand for small moves across Metro Vancouver.",
    price: 70,
    duration: 60,
    offset: [0.02, -0.005]
  },
  {
    provider: EMILY,
    city: "toronto",
    categoryId: 2,
    title: "UX design and prototyping",
    description: "User research, wireframes and clickable Figma prototypes for mobile apps and websites.",
    price: 110,
    duration: 120,
    offset: [-0.015, 0.008]
  },
  {
    provider: EMILY,
    city: "montreal",
    categoryId: 7,
    title: "Appliance repair",
    description: "Repair of washers, dryers, dishwashers and fridges. Diagnosis, spare parts and a 90-day warranty on the repair.",
    price: 90,
    duration: 60,
    offset: [0.008, 0.031]
  },
  {
    provider: EMILY,
    city: "montreal",
    categoryId: 9,
    title: "English conversation classes",
    description: "Improve your spoken English for work or travel: conversation, pronunciation and interview preparation.",
    price: 45,
    duration: 60,
    offset: [-0.004, -0.026]
  }
]

// ---- Demo photos -----------------------------------------------------------------------------

/** An RGB colour of a hue at a saturation and lightness (0..100). */
const hsl = (hue: number, s: number, l: number): readonly [number, number, number] => {
  const a = (s / 100) * Math.min(l / 100, 1 - l / 100)
  const f = (n: number) => {
    const k = (n + hue / 30) % 12
    return Math.round((l / 100 - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))) * 255)
  }
  return [f(0), f(8), f(4)]
}

const PICTURE_WIDTH = 800
const PICTURE_HEIGHT = 600

/**
 * A landscape drawn pixel by pixel in a hue (sky, sun, two hills), as a PNG: demo pictures are made
 * here, with no download, and go through the same pipeline as an upload (webpRenditions).
 */
const demoPicture = (hue: number) => {
  const [w, h] = [PICTURE_WIDTH, PICTURE_HEIGHT]
  const pixels = Buffer.alloc(w * h * 3)
  const [top, bottom, sun, far, near] = [
    hsl(hue, 70, 80),
    hsl(hue + 30, 60, 94),
    hsl(hue + 180, 80, 70),
    hsl(hue + 60, 45, 45),
    hsl(hue + 90, 40, 30)
  ]
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const farHill = h * 0.62 + Math.sin((x / w) * Math.PI * 2 + hue) * h * 0.08
      const nearHill = h * 0.8 + Math.sin((x / w) * Math.PI * 3 + hue * 2) * h * 0.06
      const t = Math.min(1, y / farHill)
      const colour =
        y > nearHill
          ? near
          : y > farHill
            ? far
            : (x - w * 0.75) ** 2 + (y - h * 0.22) ** 2 < (h * 0.11) ** 2
              ? sun
              : ([0, 1, 2] as const).map((c) => top[c] * (1 - t) + bottom[c] * t)
      pixels.set(colour, (y * w + x) * 3)
    }
  return sharp(pixels, { raw: { width: w, height: h, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer()
}

/** Three hues, drawn once per seeding and shared by every demo service (each gets its own copy of the files). */
const DEMO_HUES = [25, 150, 215] as const

/** Gives a demo service without photos two of the demo pictures (the first chosen by its category). */
const seedDemoPhotos = (serviceId: string, categoryId: number, pictures: ReadonlyArray<ReadonlyArray<Rendition>>) =>
  Effect.gen(function* () {
    const photos = yield* ServicePhotoRepository
    const storage = yield* Storage
    if ((yield* photos.list(serviceId)).length > 0) return
    for (const offset of [0, 1]) {
      const renditions = pictures[(categoryId + offset) % pictures.length]!
      const files = renditions.map((r) => ({
        size: r.size,
        width: r.width,
        height: r.height,
        bytes: r.bytes.length,
        key: newStorageKey("service-photos")
      }))
      yield* Effect.forEach(files, (f, i) => storage.put(f.key, renditions[i]!.bytes), { discard: true })
      yield* photos.add(serviceId, { id: yield* newId, files }, MAX_SERVICE_PHOTOS)
    }
  })

/** Creates the demo services that do not exist yet (matched by provider and title); running it twice changes nothing. */
export const seedDemoServices = Effect.gen(function* () {
  const identity = yield* Identity
  const services = yield* ServiceRepository
  let created = 0
  // Drawn on the first service created (none when every demo service is already there).
  let pictures: ReadonlyArray<ReadonlyArray<Rendition>> | undefined
  const owners = new Map<string, string | undefined>()
  for (const demo of demoServices) {
    if (!owners.has(demo.provider)) {
      owners.set(demo.provider, Option.getOrUndefined(Option.map(yield* identity.findByEmail(demo.provider), (u) => u.id)))
    }
    const userId = owners.get(demo.provider)
    if (userId === undefined) continue
    const existing = yield* services.listOwnedBy(userId)
    if (existing.some((s) => s.title === demo.title)) continue
    const city = demoCities[demo.city]
    const [dLat, dLng] = demo.offset ?? [0, 0]
    const inserted = yield* services.insert({
      userId,
      categoryId: demo.categoryId,
      title: demo.title,
      description: demo.description,
      priceMinor: toMinor(demo.price, city.currency),
      currency: city.currency,
      durationMinutes: demo.duration,
      location: city.location,
      lat: Math.round((city.lat + dLat) * 1e6) / 1e6,
      lng: Math.round((city.lng + dLng) * 1e6) / 1e6,
      status: "ACTIVE"
    })
    pictures ??= yield* Effect.forEach(
      DEMO_HUES,
      (hue) =>
        Effect.flatMap(
          Effect.promise(() => demoPicture(hue)),
          (png) => Effect.orDie(webpRenditions("photo", new Uint8Array(png), PHOTO_SIZES, "upload.unsupportedImage"))
        ),
      { concurrency: "unbounded" }
    )
    yield* seedDemoPhotos(inserted.id, demo.categoryId, pictures)
    created++
  }
  return { created, total: demoServices.length }
})
