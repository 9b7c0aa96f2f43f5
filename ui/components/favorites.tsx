import { useLingui } from "@lingui/react/macro"
import { useAtomValue } from "jotai"
import { useEffect, useState } from "react"
import { useLocation } from "wouter"
import { loginRedirect } from "../routing/access"
import { favoriteIdsAtom, loadFavoriteIds, toggleFavorite } from "../state/favorites"
import { userAtom } from "../state/session"

/**
 * The heart that keeps a provider among the user's favorites (on service cards and profiles). A
 * visitor is sent to /login, with a message and the way back to where they were.
 */
export const FavoriteHeart = ({ providerId, name }: { providerId: string; name: string }) => {
  const { t } = useLingui()
  const user = useAtomValue(userAtom)
  const favorites = useAtomValue(favoriteIdsAtom)
  const [location, navigate] = useLocation()
  const [busy, setBusy] = useState(false)
  useEffect(() => void loadFavoriteIds(), [user?.id])
  if (user?.id === providerId) return null
  const on = favorites?.has(providerId) ?? false
  const click = async () => {
    if (!user) {
      navigate(`${loginRedirect(`${location}${window.location.search}`)}&message=favorite`)
      return
    }
    setBusy(true)
    try {
      await toggleFavorite(providerId, !on)
    } catch {
      // The global handler already told the user; the heart went back.
    } finally {
      setBusy(false)
    }
  }
  return (
    <button
      type="button"
      className={`favorite-heart${on ? " is-on" : ""}`}
      aria-pressed={on}
      aria-label={on ? t`Retirer ${name} des favoris` : t`Ajouter ${name} aux favoris`}
      title={on ? t`Dans vos favoris` : t`Ajouter aux favoris`}
      disabled={busy}
      onClick={() => void click()}
    >
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
        <path
          d="M12 21s-7.5-4.6-9.5-9.1C1.1 8.7 3 5 6.6 5c2 0 3.4 1.1 4.4 2.5C12 6.1 13.4 5 15.4 5 19 5 20.9 8.7 19.5 11.9 17.5 16.4 12 21 12 21z"
          fill={on ? "currentColor" : "none"}
          stroke="currentColor"
          strokeWidth="2"
        />
      </svg>
    </button>
  )
}
