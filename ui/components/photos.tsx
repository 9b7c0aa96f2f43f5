// Service photos on screen: a card's cover (or a drawn placeholder by category when a service has
// none) and the detail page's gallery. Every <img> gets srcset/sizes (the browser picks the WebP
// rendition for its width and density), width/height (the space is kept before it loads: no layout
// shift) and an alt naming the service and the photo's place.

import { useLingui } from "@lingui/react/macro"
import { type CSSProperties, type KeyboardEvent, useId, useState } from "react"
import type { Photo, Service } from "../api/contract"

/** Card widths by breakpoint (one column, two from 768 px, three from 1024 px in a page of at most ~1200 px). */
const CARD_SIZES = "(min-width: 1024px) 380px, (min-width: 768px) 50vw, 100vw"
/** The gallery's stage: the page's main column. */
const STAGE_SIZES = "(min-width: 1024px) 760px, 100vw"

type PhotoOwner = Pick<Service, "title" | "photos" | "category" | "categoryId">

/** The alt of a service's n-th photo (1-based): the title and the photo's place. */
export const usePhotoAlt = () => {
  const { t } = useLingui()
  return (title: string, index: number, count: number) => (count > 1 ? t`${title}, photo ${index} sur ${count}` : t`${title}, photo`)
}

const PhotoImage = ({
  photo,
  alt,
  sizes,
  lazy,
  small = false
}: {
  photo: Photo
  alt: string
  sizes: string
  lazy: boolean
  /** Thumbnails start from the smallest rendition. */
  small?: boolean
}) => (
  <img
    src={small ? photo.thumbnailUrl : photo.url}
    srcSet={photo.srcset}
    sizes={sizes}
    width={photo.width}
    height={photo.height}
    alt={alt}
    loading={lazy ? "lazy" : "eager"}
    decoding="async"
  />
)

/** A placeholder drawn in CSS and SVG, its hue from the category (nothing to download). */
const Placeholder = ({ service, className }: { service: PhotoOwner; className: string }) => (
  <div className={`${className} photo-placeholder`} style={{ "--cover-hue": String((service.categoryId * 47) % 360) } as CSSProperties}>
    <svg viewBox="0 0 120 90" aria-hidden="true" focusable="false">
      <circle cx="92" cy="22" r="10" />
      <path d="M0 90 L38 44 L62 70 L80 54 L120 90 Z" />
    </svg>
    <span aria-hidden="true">{service.category.name}</span>
  </div>
)

/** A card's cover: the first photo, lazily loaded, or the category's placeholder. */
export const CardCover = ({ service, eager = false }: { service: PhotoOwner; eager?: boolean }) => {
  const alt = usePhotoAlt()
  const cover = service.photos[0]
  if (cover === undefined) return <Placeholder service={service} className="card-cover" />
  return (
    <div className="card-cover">
      <PhotoImage photo={cover} alt={alt(service.title, 1, 1)} sizes={CARD_SIZES} lazy={!eager} small />
    </div>
  )
}

/**
 * The detail page's photos: one large photo, previous / next buttons, and a row of thumbnails. The
 * arrow keys (and Home / End) change the photo when the gallery or one of its buttons has the focus.
 */
export const ServiceGallery = ({ service }: { service: PhotoOwner }) => {
  const { t } = useLingui()
  const alt = usePhotoAlt()
  const headingId = useId()
  const [index, setIndex] = useState(0)
  const photos = service.photos
  const count = photos.length
  if (count === 0) return <Placeholder service={service} className="gallery-placeholder" />
  const current = Math.min(index, count - 1)
  const photo = photos[current]!
  const go = (next: number) => setIndex(((next % count) + count) % count)
  const onKeyDown = (event: KeyboardEvent) => {
    const target = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: count - 1 }[event.key]
    if (target === undefined || count < 2) return
    event.preventDefault()
    go(target)
  }
  return (
    <section className="gallery" aria-labelledby={headingId} onKeyDown={onKeyDown}>
      <h2 id={headingId} className="sr-only">
        {t`Photos`}
      </h2>
      <div className="gallery-stage">
        {/* The stage holds the focus for the arrow keys when there is more than one photo. */}
        <figure tabIndex={count > 1 ? 0 : undefined} aria-roledescription={count > 1 ? t`galerie` : undefined}>
          <PhotoImage key={photo.id} photo={photo} alt={alt(service.title, current + 1, count)} sizes={STAGE_SIZES} lazy={false} />
        </figure>
        {count > 1 ? (
          <>
            <button type="button" className="gallery-nav gallery-prev" onClick={() => go(current - 1)} aria-label={t`Photo précédente`}>
              <span aria-hidden="true">‹</span>
            </button>
            <button type="button" className="gallery-nav gallery-next" onClick={() => go(current + 1)} aria-label={t`Photo suivante`}>
              <span aria-hidden="true">›</span>
            </button>
          </>
        ) : null}
      </div>
      {count > 1 ? (
        <>
          <p className="gallery-count" aria-live="polite">
            {t`Photo ${current + 1} sur ${count}`}
          </p>
          <ol className="gallery-thumbs">
            {photos.map((p, i) => (
              <li key={p.id}>
                <button
                  type="button"
                  onClick={() => go(i)}
                  aria-current={i === current ? "true" : undefined}
                  aria-label={t`Afficher la photo ${i + 1} sur ${count}`}
                >
                  <PhotoImage photo={p} alt="" sizes="96px" lazy small />
                </button>
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </section>
  )
}
