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
  type ServiceStatus,
  toMajor,
  ZeroDecimalCurrencies
} from "./domain"
export { CategoriesApi, ServicesApi, ServiceView } from "./contract"
export { toServiceView } from "./views"
export { Catalogue, CatalogueLive, type CategorySummary, type SearchResult } from "./service"
export { CategoryRepository, ServiceRepository, ServiceReviews } from "./ports"
