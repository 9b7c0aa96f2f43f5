export { isPublic, type ServiceListing, toMajor } from "./domain"
export { CategoriesApi, ServicesApi, ServiceView } from "./contract"
export { Catalogue, CatalogueLive } from "./service"
export { CategoryRepository, ServiceRepository, ServiceReviews } from "./ports"
