import { useLingui } from "@lingui/react/macro"
import { useEffect, useRef, type ReactNode } from "react"
import { siteName } from "../brand"
import { takeHeadingFocus } from "./focus"

/** Sets document.title ("Screen · Brand"), which screen readers announce and tabs show. */
export const usePageTitle = (title: string) => {
  const site = siteName()
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

/** Bars in the shape of text to come (decorative: the status line says what is loading). */
export const Skeleton = ({ lines = 3 }: { lines?: number }) => (
  <span className="skeleton-lines" aria-hidden="true">
    {Array.from({ length: lines }, (_, index) => (
      <span key={index} className="skeleton" />
    ))}
  </span>
)

/** The loading state: a polite status line and a skeleton of the content. */
export const Loading = ({ label }: { label?: string }) => {
  const { t } = useLingui()
  return (
    <div className="loading" role="status">
      <span className="loading-label">
        <span className="spinner" aria-hidden="true" />
        {label ?? t`Chargement…`}
      </span>
      <Skeleton />
    </div>
  )
}
