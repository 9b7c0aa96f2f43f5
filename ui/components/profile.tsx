import { useLingui } from "@lingui/react/macro"
import { useEffect, useId, useState } from "react"
import { apiBlob } from "../api/client"
import { CopyNotice, profileUrl, useCopyLink } from "./catalogue"

/** A profile photo: fetched with the bearer token (FRIENDS_ONLY and PRIVATE profiles need it), initials otherwise. */
export const ProfilePhoto = ({ url, name, size = 96 }: { url: string | null; name: string; size?: number }) => {
  const [src, setSrc] = useState<string | null>(null)
  const [failed, setFailed] = useState(false)
  useEffect(() => {
    setFailed(false)
    setSrc(null)
    if (!url) return
    let objectUrl: string | null = null
    let live = true
    apiBlob(url.replace(/^\/api/, "")).then(
      (blob) => {
        objectUrl = URL.createObjectURL(blob)
        if (live) setSrc(objectUrl)
      },
      () => live && setFailed(true)
    )
    return () => {
      live = false
      if (objectUrl) URL.revokeObjectURL(objectUrl)
    }
  }, [url])
  const initials = name
    .split(/\s+/)
    .map((part) => part.slice(0, 1).toUpperCase())
    .join("")
    .slice(0, 2)
  if (!src || failed) {
    return (
      <span
        className="avatar avatar-initials profile-photo"
        style={{ width: size, height: size, fontSize: size / 3 }}
        role="img"
        aria-label={name}
      >
        {initials}
      </span>
    )
  }
  return <img className="avatar profile-photo" src={src} alt={name} width={size} height={size} onError={() => setFailed(true)} />
}

/** A list of short texts: Enter or the add button adds a trimmed, non-blank, not yet present value. */
export const ChipList = ({
  label,
  values,
  onChange,
  max = 30
}: {
  label: string
  values: ReadonlyArray<string>
  onChange: (values: ReadonlyArray<string>) => void
  max?: number
}) => {
  const { t } = useLingui()
  const id = useId()
  const [draft, setDraft] = useState("")
  const [notice, setNotice] = useState<string>()
  const add = () => {
    const value = draft.trim()
    if (!value) return
    if (values.some((existing) => existing.toLowerCase() === value.toLowerCase())) {
      setNotice(t`Déjà dans la liste.`)
      return
    }
    if (values.length >= max) {
      setNotice(t`Liste complète.`)
      return
    }
    onChange([...values, value.slice(0, 60)])
    setDraft("")
    setNotice(undefined)
  }
  return (
    <div className="field chip-field">
      <label htmlFor={id}>{label}</label>
      <div className="chip-input">
        <input
          id={id}
          value={draft}
          maxLength={60}
          aria-describedby={notice ? `${id}-notice` : undefined}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter") {
              event.preventDefault()
              add()
            }
          }}
        />
        <button type="button" className="button-secondary button-small" onClick={add}>
          {t`Ajouter`}
          <span className="sr-only"> : {label}</span>
        </button>
      </div>
      {notice ? (
        <p className="field-hint" id={`${id}-notice`}>
          {notice}
        </p>
      ) : null}
      <ul className="chips">
        {values.map((value) => (
          <li key={value} className="chip">
            {value}
            <button type="button" className="chip-remove" onClick={() => onChange(values.filter((v) => v !== value))}>
              <span aria-hidden="true">×</span>
              <span className="sr-only">{t`Retirer ${value}`}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  )
}

export const Chips = ({ values }: { values: ReadonlyArray<string> | null }) =>
  values && values.length > 0 ? (
    <ul className="chips">
      {values.map((value) => (
        <li key={value} className="chip">
          {value}
        </li>
      ))}
    </ul>
  ) : (
    <p>—</p>
  )

/** Copies the public profile link (the 1.5 s notice of the services' share button). */
export const ShareLink = ({ id }: { id: string }) => {
  const { t } = useLingui()
  const { notice, copy } = useCopyLink()
  return (
    <span className="share">
      <button type="button" className="button-secondary" onClick={() => void copy(profileUrl(id))}>
        {t`Copier le lien du profil`}
      </button>
      <CopyNotice notice={notice} />
    </span>
  )
}
