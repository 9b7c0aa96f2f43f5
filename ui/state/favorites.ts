// The signed-in user's favorite providers (issue 14): loaded once per session and kept in one atom,
// so that every heart (service cards, profiles, /favorites) shows the same state and a change made on
// one shows on all.
import { atom } from "jotai"
import { profileApi } from "../api/endpoints"
import { store, userAtom } from "./session"

/** Ids of the favorite profiles, or null until loaded (or for a visitor). */
export const favoriteIdsAtom = atom<ReadonlySet<string> | null>(null)

/** Every favorite of the signed-in user, page after page (100 a page). */
export const allFavorites = async () => {
  const all = []
  for (let page = 1; ; page++) {
    const { data } = await profileApi.favorites(page)
    all.push(...data.favorites)
    if (page >= data.pagination.pages) return all
  }
}

let loadedFor: string | undefined
/** Loads the favorites of the current user once (the first heart shown asks for them). */
export const loadFavoriteIds = async () => {
  const user = store.get(userAtom)
  if (!user || loadedFor === user.id) return
  loadedFor = user.id
  try {
    store.set(favoriteIdsAtom, new Set((await allFavorites()).map((f) => f.favoritedId)))
  } catch {
    loadedFor = undefined
  }
}

/** Adds or removes a favorite; the hearts follow at once and go back if the server refuses. */
export const toggleFavorite = async (id: string, on: boolean) => {
  const before = store.get(favoriteIdsAtom) ?? new Set<string>()
  const next = new Set(before)
  if (on) next.add(id)
  else next.delete(id)
  store.set(favoriteIdsAtom, next)
  try {
    if (on) await profileApi.favorite(id)
    else await profileApi.unfavorite(id)
  } catch (error) {
    store.set(favoriteIdsAtom, before)
    throw error
  }
}

// Another account, another set of favorites.
store.sub(userAtom, () => {
  loadedFor = undefined
  store.set(favoriteIdsAtom, null)
})
