export { isPublic, type ServiceListing } from "./domain"
export { CategoriesApi, ServicesApi, ServiceView } from "./contract"
export { Catalogue, CatalogueLive } from "./service"
export { CategoryRepository, ServiceRepository, ServiceReviews } from "./ports"
