// The catalogue's literal lists, in a file that imports nothing: the domain, the contract and the UI share it.

export const ServiceStatuses = ["ACTIVE", "INACTIVE"] as const
export type ServiceStatus = (typeof ServiceStatuses)[number]

/** The sort orders of the service list and the search (`sortBy`). */
export const Sorts = ["newest", "price_asc", "price_desc", "rating", "distance", "relevance"] as const
export type Sort = (typeof Sorts)[number]
