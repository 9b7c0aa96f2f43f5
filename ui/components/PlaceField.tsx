import { useLingui } from "@lingui/react/macro"
import { type KeyboardEvent, useEffect, useId, useState } from "react"
import type { Place } from "../api/contract"
import { placesApi } from "../api/endpoints"
import { listPosition } from "../catalogue/geolocation"
import { type ChosenPlace, placeLabel, placeToParams } from "../catalogue/places"
import { RadiusField } from "./catalogue"

const SUGGEST_DELAY_MS = 200

/**
 * A place typed with suggestions (the ARIA combobox pattern: arrows move, Enter picks, Escape closes),
 * and "near me", which names the place of the browser's position. Choosing nothing clears the filter.
 */
export const PlaceField = ({
  label,
  value,
  onChange,
  hint,
  nearMe = true
}: {
  readonly label: string
  readonly value: ChosenPlace | null
  readonly onChange: (place: ChosenPlace | null) => void
  readonly hint?: string | undefined
  readonly nearMe?: boolean
}) => {
  const { t, i18n } = useLingui()
  const id = useId()
  const listId = `${id}-list`
  const hintId = `${id}-hint`
  const [text, setText] = useState(value?.label ?? "")
  const [open, setOpen] = useState(false)
  const [options, setOptions] = useState<ReadonlyArray<Place>>([])
  const [active, setActive] = useState(-1)
  const [status, setStatus] = useState<"idle" | "locating" | "failed" | "unavailable">("idle")

  useEffect(() => setText(value?.label ?? ""), [value?.label])

  useEffect(() => {
    const typed = text.trim()
    if (!open || typed === "" || typed === value?.label) {
      setOptions([])
      return
    }
    let live = true
    const timer = setTimeout(() => {
      placesApi
        .suggest(typed)
        .then(({ data }) => {
          if (!live) return
          setOptions(data.places)
          setActive(data.places.length > 0 ? 0 : -1)
          setStatus("idle")
        })
        .catch(() => live && setStatus("unavailable"))
    }, SUGGEST_DELAY_MS)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [text, open])

  const pick = (chosen: ChosenPlace) => {
    setText(chosen.label)
    setOpen(false)
    setOptions([])
    onChange(chosen)
  }
  const choose = (place: Place) => pick({ label: placeLabel(place, i18n.locale), near: place.id })

  const onKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown" && options.length > 0) {
      event.preventDefault()
      setOpen(true)
      setActive((i) => (i + 1) % options.length)
    } else if (event.key === "ArrowUp" && options.length > 0) {
      event.preventDefault()
      setActive((i) => (i <= 0 ? options.length - 1 : i - 1))
    } else if (event.key === "Enter" && open && active >= 0 && options[active]) {
      event.preventDefault()
      choose(options[active]!)
    } else if (event.key === "Escape") {
      setOpen(false)
    }
  }

  // Near me: around the browser's exact position, named after the nearest place when one is known.
  const locate = async () => {
    setStatus("locating")
    const position = await listPosition(true)
    if (!position) return setStatus("failed")
    const nearest = await placesApi.reverse(position).then(
      ({ data }) => data.place,
      () => null
    )
    const name = nearest ? placeLabel(nearest, i18n.locale) : undefined
    pick({ label: name ? t`Ma position (${name})` : t`Ma position`, lat: position.lat, lng: position.lng })
    setStatus("idle")
  }

  const expanded = open && options.length > 0
  const message =
    status === "locating"
      ? t`Localisation en cours…`
      : status === "failed"
        ? t`Votre position n'est pas disponible : saisissez une ville.`
        : status === "unavailable"
          ? t`La recherche de lieux est indisponible pour le moment.`
          : hint
  return (
    <div className="field place-field">
      <label htmlFor={id}>{label}</label>
      <div className="place-input">
        <input
          id={id}
          type="text"
          role="combobox"
          autoComplete="off"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={expanded && active >= 0 ? `${id}-option-${active}` : undefined}
          aria-describedby={message ? hintId : undefined}
          placeholder={t`Ville, par exemple Montréal`}
          value={text}
          maxLength={100}
          onChange={(event) => {
            setText(event.target.value)
            setOpen(true)
            if (event.target.value.trim() === "" && value) onChange(null)
          }}
          onKeyDown={onKey}
          onFocus={() => setOpen(true)}
          onBlur={() => setTimeout(() => setOpen(false), 150)}
        />
        {nearMe ? (
          <button type="button" className="button-secondary" onClick={() => void locate()} disabled={status === "locating"}>
            {t`Près de moi`}
          </button>
        ) : null}
      </div>
      <ul id={listId} role="listbox" className="place-options" hidden={!expanded} aria-label={label}>
        {options.map((place, index) => (
          <li
            key={place.id}
            id={`${id}-option-${index}`}
            role="option"
            aria-selected={index === active}
            onMouseDown={(event) => {
              event.preventDefault()
              choose(place)
            }}
          >
            {placeLabel(place, i18n.locale)}
          </li>
        ))}
      </ul>
      {message ? (
        <p className="field-hint" id={hintId} role={status === "idle" ? undefined : "status"}>
          {message}
        </p>
      ) : null}
    </div>
  )
}

/**
 * The place and radius filters of the list screens (/services, /search), kept in their URL through
 * `update`; clearing the place also drops an order by distance.
 */
export const PlaceFilters = ({
  place,
  radius,
  sort,
  update
}: {
  readonly place: ChosenPlace | null
  readonly radius: number
  readonly sort: string
  readonly update: (changes: Record<string, string | undefined>) => void
}) => {
  const { t } = useLingui()
  return (
    <>
      <PlaceField
        label={t`Lieu`}
        value={place}
        onChange={(chosen) =>
          update({ ...placeToParams(chosen), ...(chosen === null && sort === "distance" ? { sortBy: undefined } : {}) })
        }
      />
      {place ? <RadiusField value={radius} onChange={(km) => update({ radius: km })} /> : null}
    </>
  )
}
