// The product's languages, in a file that imports nothing: the contracts and the UI share it.
export const Languages = ["fr", "en"] as const
export type Language = (typeof Languages)[number]
