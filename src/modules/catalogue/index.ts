export {
  type Category,
  categoryName,
  distanceKm,
  isPublic,
  isUuid,
  normalizeText,
  PaymentAccountRequired,
  ProviderNotPayable,
  ServiceNotFound,
  type ServiceListing,
  type ServiceRecord,
  type ServiceStatus
} from "./domain"
export { CategoriesApi, ServicesApi, ServiceView } from "./contract"
export { toServiceView } from "./views"
export { Catalogue, CatalogueLive, type CategorySummary, type SearchResult } from "./service"
export { CategoriesHttpLive, ServicesHttpLive } from "./http"
export { CategoryRepository, ServiceRepository, ServiceReviews } from "./ports"
export { CataloguePostgresAdapters } from "./adapters/postgres"
export { CatalogueMemoryAdapters } from "./adapters/memory"
export { seedDemoServices } from "./demo"
