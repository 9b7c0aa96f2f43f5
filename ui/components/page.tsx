import { useLingui } from "@lingui/react/macro"
import { useEffect, useRef, type ReactNode } from "react"
import { takeHeadingFocus } from "./focus"

/** Sets document.title, which screen readers announce and tabs show. */
export const usePageTitle = (title: string) => {
  const { t } = useLingui()
  const site = t`Marketplace`
  useEffect(() => {
    document.title = `${title} · ${site}`
  }, [title, site])
}

/** A screen: its title (h1, focused after navigation by the shell) and content. */
export const Page = ({
  title,
  children,
  narrow = false,
  intro
}: {
  title: string
  children?: ReactNode
  narrow?: boolean
  intro?: ReactNode
}) => {
  usePageTitle(title)
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    takeHeadingFocus(heading.current)
  }, [])
  return (
    <div className={narrow ? "page page-narrow" : "page"}>
      <h1 tabIndex={-1} ref={heading}>
        {title}
      </h1>
      {intro ? <p className="lead">{intro}</p> : null}
      {children}
    </div>
  )
}

export const Loading = ({ label }: { label?: string }) => {
  const { t } = useLingui()
  return (
    <div className="loading" role="status">
      <span className="spinner" aria-hidden="true" />
      {label ?? t`Chargement…`}
    </div>
  )
}
