import { useLingui } from "@lingui/react/macro"
import { useAtomValue } from "jotai"
import { useEffect, useRef, useState, type RefObject } from "react"
import { Link, useLocation } from "wouter"
import { navigate } from "wouter/use-browser-location"
import { authApi } from "../api/endpoints"
import type { User } from "../api/contract"
import type { Language } from "../i18n/detect"
import { switchLanguage } from "../state/language"
import { clearSession, userAtom } from "../state/session"
import { Brand } from "./Logo"
import { UnreadBadge, UnreadTracker, unreadMessagesAtom } from "../messaging/unread"

interface NavItem {
  readonly href: string
  readonly label: string
  /** A count shown on the link (unread messages). */
  readonly badge?: number | null
}

/** The links a user sees, by role (spec section 2, Navigation). */
const useNavItems = (user: User | null): ReadonlyArray<NavItem> => {
  const { t } = useLingui()
  const unread = useAtomValue(unreadMessagesAtom)
  const items: Array<NavItem> = [{ href: "/services", label: t`Services` }]
  // The spec keeps /search for signed-in users.
  if (user) items.push({ href: "/search", label: t`Recherche` })
  if (user?.role === "PROVIDER") {
    items.push(
      { href: "/services/my", label: t`Mes services` },
      { href: "/services/create", label: t`Créer un service` },
      { href: "/provider/calendar", label: t`Calendrier` },
      { href: "/provider/availability", label: t`Disponibilités` },
      { href: "/provider/earnings", label: t`Revenus` }
    )
  }
  if (user) {
    items.push(
      { href: "/bookings", label: t`Réservations` },
      { href: "/messaging", label: t`Messagerie`, badge: unread },
      { href: "/favorites", label: t`Favoris` },
      { href: "/profile", label: t`Profil` },
      { href: "/settings", label: t`Paramètres` }
    )
  }
  if (user?.role === "CLIENT") items.push({ href: "/become-provider", label: t`Devenir prestataire` })
  if (user?.role === "ADMIN") items.push({ href: "/admin", label: t`Administration` })
  items.push({ href: "/about", label: t`À propos` }, { href: "/contact", label: t`Contact` })
  if (!user) items.push({ href: "/login", label: t`Connexion` }, { href: "/register", label: t`Inscription` })
  return items
}

const isCurrent = (location: string, href: string) => location === href

const NavLinks = ({ items }: { items: ReadonlyArray<NavItem> }) => {
  const [location] = useLocation()
  return (
    <ul className="nav-links">
      {items.map((item) => (
        <li key={item.href}>
          <Link href={item.href} aria-current={isCurrent(location, item.href) ? "page" : undefined}>
            {item.label}
            {item.badge ? <UnreadBadge count={item.badge} /> : null}
          </Link>
        </li>
      ))}
    </ul>
  )
}

const LanguageButtons = () => {
  const { t, i18n } = useLingui()
  // Each language is named in itself. The visible text equals the aria-label: a short "FR"
  // would not be part of the name "Français", which fails WCAG 2.5.3 (label in name).
  const button = (language: Language, name: string) => (
    <button
      type="button"
      className="lang-button"
      lang={language}
      aria-label={name}
      aria-pressed={i18n.locale === language}
      onClick={() => void switchLanguage(language)}
    >
      {name}
    </button>
  )
  return (
    <div className="lang-switch" role="group" aria-label={t`Langue`}>
      {button("fr", "Français")}
      {button("en", "English")}
    </div>
  )
}

/** Logout always ends the local session and goes to /login, whatever the server answers. */
const logout = () => {
  navigate("/login")
  clearSession()
  void authApi.logout().catch(() => undefined)
}

const LogoutButton = () => {
  const { t } = useLingui()
  return (
    <button type="button" className="button-ghost" onClick={logout}>
      {t`Déconnexion`}
    </button>
  )
}

const FOCUSABLE = "a[href], button:not([disabled]), input, select, textarea"

/**
 * The slide-in menu under 768 px: a modal dialog that keeps focus inside and closes on Escape. Its own
 * trap rather than useFocusTrap: the shell is first-load code, and a module it shared with the lazy
 * dialogs would become one more first-load chunk (test/ui/budget.test.ts).
 */
const MobileMenu = ({
  items,
  user,
  onClose,
  toggle
}: {
  items: ReadonlyArray<NavItem>
  user: User | null
  onClose: () => void
  toggle: RefObject<HTMLButtonElement | null>
}) => {
  const { t } = useLingui()
  const panel = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const element = panel.current
    if (!element) return
    const focusables = () => Array.from(element.querySelectorAll<HTMLElement>(FOCUSABLE))
    focusables()[0]?.focus()
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.preventDefault()
        onClose()
        toggle.current?.focus()
        return
      }
      if (event.key !== "Tab") return
      const list = focusables()
      const first = list[0]
      const last = list[list.length - 1]
      if (event.shiftKey && (document.activeElement === first || !element.contains(document.activeElement))) {
        event.preventDefault()
        last?.focus()
      } else if (!event.shiftKey && (document.activeElement === last || !element.contains(document.activeElement))) {
        event.preventDefault()
        first?.focus()
      }
    }
    document.addEventListener("keydown", onKey)
    document.body.classList.add("menu-open")
    return () => {
      document.removeEventListener("keydown", onKey)
      document.body.classList.remove("menu-open")
    }
  }, [onClose, toggle])
  return (
    <>
      <div className="menu-backdrop" onClick={onClose} />
      <div className="mobile-menu" id="mobile-menu" role="dialog" aria-modal="true" aria-label={t`Menu`} ref={panel}>
        <button
          type="button"
          className="button-ghost menu-close"
          onClick={() => {
            onClose()
            toggle.current?.focus()
          }}
        >
          {t`Fermer le menu`}
        </button>
        <nav aria-label={t`Navigation principale`}>
          <NavLinks items={items} />
        </nav>
        <LanguageButtons />
        {user ? <LogoutButton /> : null}
      </div>
    </>
  )
}

const ADMIN_SECTIONS = [
  "/admin",
  "/admin/users",
  "/admin/services",
  "/admin/bookings",
  "/admin/applications",
  "/admin/reports",
  "/admin/financial",
  "/admin/analytics",
  "/admin/audit",
  "/admin/rates"
] as const

const AdminStrip = () => {
  const { t } = useLingui()
  const labels: Record<(typeof ADMIN_SECTIONS)[number], string> = {
    "/admin": t`Tableau de bord`,
    "/admin/users": t`Utilisateurs`,
    "/admin/services": t`Services`,
    "/admin/bookings": t`Réservations`,
    "/admin/applications": t`Candidatures`,
    "/admin/reports": t`Signalements`,
    "/admin/financial": t`Finances`,
    "/admin/analytics": t`Statistiques`,
    "/admin/audit": t`Journal d'audit`,
    "/admin/rates": t`Taux de change`
  }
  return (
    <nav className="admin-strip" aria-label={t`Sections d'administration`}>
      <NavLinks items={ADMIN_SECTIONS.map((href) => ({ href, label: labels[href] }))} />
    </nav>
  )
}

export const Header = () => {
  const { t } = useLingui()
  const user = useAtomValue(userAtom)
  const items = useNavItems(user)
  const unread = useAtomValue(unreadMessagesAtom)
  const [open, setOpen] = useState(false)
  const [location] = useLocation()
  const toggle = useRef<HTMLButtonElement>(null)

  // A followed link or a widening window closes the slide-in menu.
  useEffect(() => {
    setOpen(false)
  }, [location])
  useEffect(() => {
    const wide = window.matchMedia("(min-width: 768px)")
    const onChange = () => wide.matches && setOpen(false)
    wide.addEventListener("change", onChange)
    return () => wide.removeEventListener("change", onChange)
  }, [])
  const close = useRef(() => setOpen(false)).current

  return (
    <header className="site-header">
      <div className="bar">
        <Link href="/services" className="brand">
          <Brand />
        </Link>
        <nav className="nav-desktop" aria-label={t`Navigation principale`}>
          <NavLinks items={items} />
        </nav>
        <div className="nav-tools">
          <LanguageButtons />
          {user ? <LogoutButton /> : null}
        </div>
        <button
          type="button"
          className="menu-toggle"
          ref={toggle}
          aria-expanded={open}
          aria-controls={open ? "mobile-menu" : undefined}
          onClick={() => setOpen(!open)}
        >
          <span aria-hidden="true" className="burger" />
          {t`Menu`}
          {unread ? <UnreadBadge count={unread} /> : null}
        </button>
      </div>
      {user ? <UnreadTracker key={user.id} viewerId={user.id} /> : null}
      {user?.role === "ADMIN" ? <AdminStrip /> : null}
      {open ? <MobileMenu items={items} user={user} onClose={close} toggle={toggle} /> : null}
    </header>
  )
}
