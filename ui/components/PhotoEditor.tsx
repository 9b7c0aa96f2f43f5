import { plural } from "@lingui/core/macro"
// The service form's photos: add (several at once), delete, and order them with "move left / right"
// buttons (the first photo is the cover). On an existing service each change is saved at once; on
// the create form the chosen files wait, in their order, and are sent once the service exists.

import { useLingui } from "@lingui/react/macro"
import { useEffect, useId, useRef, useState } from "react"
import { ApiError } from "../api/client"
import { MAX_SERVICE_PHOTOS, type Photo } from "../api/contract"
import { catalogueApi } from "../api/endpoints"

/** One photo in the editor: saved (a Photo of the service) or waiting to be sent with the new service. */
type Item = { readonly id: string; readonly src: string; readonly file?: File; readonly photo?: Photo }

const ACCEPT = "image/jpeg,image/png,image/webp"

const itemOf = (photo: Photo): Item => ({ id: photo.id, src: photo.thumbnailUrl, photo })

/** The list with one item moved by `by` places (-1: left, +1: right). */
const moved = <A extends { readonly id: string }>(items: ReadonlyArray<A>, id: string, by: number) => {
  const from = items.findIndex((i) => i.id === id)
  const to = from + by
  if (from < 0 || to < 0 || to >= items.length) return items
  const next = [...items]
  const [item] = next.splice(from, 1)
  next.splice(to, 0, item!)
  return next
}

export const PhotoEditor = ({
  serviceId,
  title,
  initial,
  onPendingChange
}: {
  /** The saved service; absent on the create form (files wait for onPendingChange's owner to send them). */
  serviceId?: string
  title: string
  initial: ReadonlyArray<Photo>
  onPendingChange?: (files: ReadonlyArray<File>) => void
}) => {
  const { t } = useLingui()
  const inputId = useId()
  const hintId = useId()
  const [items, setItems] = useState<ReadonlyArray<Item>>(() => initial.map(itemOf))
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string>()
  const [status, setStatus] = useState("")
  const [focus, setFocus] = useState<{ id: string; by: number }>()
  const listRef = useRef<HTMLOListElement>(null)

  // Waiting files are previewed through object URLs, released when removed and when the form goes.
  const itemsRef = useRef(items)
  itemsRef.current = items
  useEffect(() => () => itemsRef.current.forEach((i) => i.file && URL.revokeObjectURL(i.src)), [])

  // After a move the focus stays on the moved photo's button (or its other arrow at either end).
  useEffect(() => {
    if (!focus) return
    const buttons = listRef.current?.querySelectorAll<HTMLButtonElement>(`[data-photo="${focus.id}"]`)
    const wanted = [...(buttons ?? [])].find((b) => b.dataset.move === String(focus.by) && !b.disabled)
    const other = [...(buttons ?? [])].find((b) => b.dataset.move !== undefined && !b.disabled)
    ;(wanted ?? other)?.focus()
  }, [focus, items])

  const pending = (next: ReadonlyArray<Item>) => {
    setItems(next)
    onPendingChange?.(next.flatMap((i) => (i.file ? [i.file] : [])))
  }
  const saved = (photos: ReadonlyArray<Photo>) => setItems(photos.map(itemOf))
  const failed = (e: unknown) => {
    if (!(e instanceof ApiError)) throw e
    setError(e.fieldErrors().photo ?? e.message)
  }

  const add = async (files: ReadonlyArray<File>) => {
    setError(undefined)
    const room = MAX_SERVICE_PHOTOS - items.length
    if (files.length > room) setError(t`Un service peut avoir au plus ${MAX_SERVICE_PHOTOS} photos.`)
    const taken = files.slice(0, Math.max(0, room))
    if (taken.length === 0) return
    if (serviceId === undefined) {
      pending([...items, ...taken.map((file) => ({ id: crypto.randomUUID(), src: URL.createObjectURL(file), file }))])
      setStatus(
        plural(taken.length, {
          one: "# photo ajoutée : elle sera envoyée avec le service.",
          other: "# photos ajoutées : elles seront envoyées avec le service."
        })
      )
      return
    }
    setBusy(true)
    try {
      // One at a time, in the chosen order.
      for (const file of taken) saved((await catalogueApi.addPhoto(serviceId, file)).data.photos)
      setStatus(plural(taken.length, { one: "# photo ajoutée.", other: "# photos ajoutées." }))
    } catch (e) {
      failed(e)
    } finally {
      setBusy(false)
    }
  }

  const remove = async (item: Item, position: number) => {
    setError(undefined)
    if (serviceId === undefined || item.photo === undefined) {
      pending(items.filter((i) => i.id !== item.id))
      if (item.file) URL.revokeObjectURL(item.src)
    } else {
      setBusy(true)
      try {
        saved((await catalogueApi.removePhoto(serviceId, item.photo.id)).data.photos)
      } catch (e) {
        return failed(e)
      } finally {
        setBusy(false)
      }
    }
    setStatus(t`Photo ${position} supprimée.`)
  }

  // Moves are saved one after the other: a second press while the first is saved is queued, not lost
  // (a keyboard user pressing twice moved the photo once), and each starts from the order the last left.
  const moves = useRef<Promise<void>>(Promise.resolve())
  const move = (item: Item, by: number) => {
    moves.current = moves.current.then(() => moveNow(item, by))
    return moves.current
  }
  const moveNow = async (item: Item, by: number) => {
    setError(undefined)
    const before = itemsRef.current
    const next = moved(before, item.id, by)
    if (next === before) return
    const position = next.findIndex((i) => i.id === item.id) + 1
    itemsRef.current = next
    if (serviceId === undefined) pending(next)
    else {
      setItems(next)
      setBusy(true)
      try {
        saved((await catalogueApi.reorderPhotos(serviceId, { photoIds: next.map((i) => i.id) })).data.photos)
      } catch (e) {
        itemsRef.current = before
        setItems(before)
        return failed(e)
      } finally {
        setBusy(false)
      }
    }
    setStatus(
      position === 1
        ? t`Photo déplacée en position 1 sur ${next.length} : c'est la couverture.`
        : t`Photo déplacée en position ${position} sur ${next.length}.`
    )
    setFocus({ id: item.id, by })
  }

  const count = items.length
  return (
    <fieldset className="photo-editor" aria-busy={busy || undefined}>
      <legend>{t`Photos`}</legend>
      <p className="field-hint" id={hintId}>
        {t`Jusqu'à ${MAX_SERVICE_PHOTOS} photos JPEG, PNG ou WebP de 5 Mo au plus. La première est la couverture, affichée sur les cartes.`}
      </p>
      {count > 0 ? (
        <ol className="photo-list" ref={listRef}>
          {items.map((item, i) => {
            const n = i + 1
            return (
              <li key={item.id} className="photo-item">
                <div className="photo-frame">
                  <img
                    src={item.src}
                    alt={t`${title || t`Service`}, photo ${n} sur ${count}`}
                    width={item.photo?.width}
                    height={item.photo?.height}
                  />
                  {i === 0 ? <span className="photo-cover-badge">{t`Couverture`}</span> : null}
                </div>
                <div className="photo-actions">
                  <button
                    type="button"
                    className="button-secondary"
                    data-photo={item.id}
                    data-move="-1"
                    disabled={i === 0}
                    aria-label={t`Déplacer la photo ${n} vers la gauche`}
                    onClick={() => void move(item, -1)}
                  >
                    <span aria-hidden="true">←</span>
                  </button>
                  <button
                    type="button"
                    className="button-secondary"
                    data-photo={item.id}
                    data-move="1"
                    disabled={i === count - 1}
                    aria-label={t`Déplacer la photo ${n} vers la droite`}
                    onClick={() => void move(item, 1)}
                  >
                    <span aria-hidden="true">→</span>
                  </button>
                  <button
                    type="button"
                    className="button-secondary"
                    disabled={busy}
                    aria-label={t`Supprimer la photo ${n}`}
                    onClick={() => void remove(item, n)}
                  >
                    {t`Supprimer`}
                  </button>
                </div>
              </li>
            )
          })}
        </ol>
      ) : null}
      {count < MAX_SERVICE_PHOTOS ? (
        <div className="field">
          <label htmlFor={inputId}>{t`Ajouter des photos`}</label>
          <input
            id={inputId}
            type="file"
            accept={ACCEPT}
            multiple
            disabled={busy}
            aria-describedby={hintId}
            onChange={(event) => {
              const files = [...(event.target.files ?? [])]
              event.target.value = ""
              void add(files)
            }}
          />
        </div>
      ) : null}
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <p className="sr-only" role="status">
        {status}
      </p>
    </fieldset>
  )
}
