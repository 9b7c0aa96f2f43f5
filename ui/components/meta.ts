import { useEffect } from "react"

type MetaKey = { readonly attribute: "name" | "property"; readonly key: string }

const tag = ({ attribute, key }: MetaKey): { element: HTMLMetaElement; previous: string | null } => {
  let element = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`)
  const previous = element?.getAttribute("content") ?? null
  if (!element) {
    element = document.createElement("meta")
    element.setAttribute(attribute, key)
    document.head.append(element)
  }
  return { element, previous }
}

export interface ShareMetadata {
  readonly title: string
  readonly description: string
  readonly url: string
  readonly type?: string
}

/**
 * Social-sharing metadata of the current screen (Open Graph and Twitter card), set at runtime and
 * restored when the screen goes away.
 */
export const useShareMetadata = (meta: ShareMetadata | null) => {
  const title = meta?.title
  const description = meta?.description
  const url = meta?.url
  const type = meta?.type ?? "website"
  useEffect(() => {
    if (title === undefined || description === undefined || url === undefined) return
    const values: ReadonlyArray<readonly [MetaKey, string]> = [
      [{ attribute: "name", key: "description" }, description],
      [{ attribute: "property", key: "og:title" }, title],
      [{ attribute: "property", key: "og:description" }, description],
      [{ attribute: "property", key: "og:type" }, type],
      [{ attribute: "property", key: "og:url" }, url],
      [{ attribute: "name", key: "twitter:card" }, "summary"],
      [{ attribute: "name", key: "twitter:title" }, title],
      [{ attribute: "name", key: "twitter:description" }, description]
    ]
    const applied = values.map(([key, content]) => {
      const { element, previous } = tag(key)
      element.setAttribute("content", content)
      return { element, previous }
    })
    return () => {
      for (const { element, previous } of applied) {
        if (previous === null) element.remove()
        else element.setAttribute("content", previous)
      }
    }
  }, [title, description, url, type])
}
