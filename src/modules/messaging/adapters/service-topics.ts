import { Effect, Layer, Option } from "effect"
import { isPublic, ServiceRepository } from "../../catalogue"
import { ServiceTopics } from "../ports"

/** The services conversations are about, read from the catalogue: public ones, or the viewer's own. */
export const ServiceTopicsFromCatalogue = Layer.effect(
  ServiceTopics,
  Effect.map(ServiceRepository, (services) => ({
    find: (serviceId: string, viewerId: string) =>
      Effect.map(services.findById(serviceId), (found) =>
        found.pipe(
          Option.filter((s) => s.archivedAt === null && (isPublic(s) || s.userId === viewerId)),
          Option.map((s) => ({ id: s.id, title: s.title, ownerId: s.userId }))
        )
      )
  }))
)
