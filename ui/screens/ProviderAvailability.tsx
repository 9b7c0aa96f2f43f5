import { TZDate } from "@date-fns/tz"
import { useLingui } from "@lingui/react/macro"
import { useAtomValue } from "jotai"
import { type FormEvent, useId, useState } from "react"
import { Link } from "wouter"
import { ApiError } from "../api/client"
import { availabilityApi } from "../api/endpoints"
import type { Availability } from "../api/contract"
import { useAsync } from "../components/async"
import { Alert, SubmitButton, TextField } from "../components/forms"
import { failureText, Loaded } from "../components/loaded"
import { Page } from "../components/page"
import { formatDateRange, zoneName } from "../format"
import { userAtom } from "../state/session"
import { CalendarFeedBlock } from "../components/booking/CalendarFeed"
import { WeekEditor } from "../components/booking/WeekEditor"
import { showToast } from "../state/toasts"
import { BUFFER_MAX_MINUTES, NOTICE_MAX_MINUTES } from "../../src/modules/booking/availability/rules"

type Range = { start: string; end: string }
type Exception = { kind: "closed" | "open"; startTime: string; endTime: string; note: string | null }
interface Draft {
  timeZone: string
  weekly: Array<{ weekday: number; ranges: Array<Range> }>
  exceptions: Array<Exception>
  noticeMinutes: string
  bufferMinutes: string
}

const draftOf = (plan: Availability): Draft => ({
  timeZone: plan.timeZone,
  weekly: plan.weekly.map((d) => ({ weekday: d.weekday, ranges: d.ranges.map((r) => ({ ...r })) })),
  exceptions: plan.exceptions.map(({ kind, startTime, endTime, note }) => ({ kind, startTime, endTime, note })),
  noticeMinutes: String(plan.noticeMinutes),
  bufferMinutes: String(plan.bufferMinutes)
})

/** "2026-12-25" and "09:30" in the plan's zone → the instant (ISO); the zone library does the offsets. */
const instantOf = (date: string, time: string, zone: string) => {
  const [y, m, d] = date.split("-").map(Number)
  const [hh, mm] = time.split(":").map(Number)
  return new Date(new TZDate(y!, m! - 1, d!, hh!, mm!, zone).getTime()).toISOString()
}

/** A date or time input with its label (the shared TextField has no date or time type). */
const WhenField = ({
  label,
  type,
  value,
  onChange,
  required = true
}: {
  label: string
  type: "date" | "time"
  value: string
  onChange: (value: string) => void
  required?: boolean
}) => {
  const id = useId()
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} type={type} value={value} required={required} onChange={(event) => onChange(event.target.value)} />
    </div>
  )
}

/** The exception being added: a day off, closed hours, or extra open hours. */
const ExceptionForm = ({ zone, onAdd }: { zone: string; onAdd: (exception: Exception) => void }) => {
  const { t } = useLingui()
  const [what, setWhat] = useState<"dayOff" | "closedHours" | "openHours">("dayOff")
  const [date, setDate] = useState("")
  const [lastDate, setLastDate] = useState("")
  const [from, setFrom] = useState("09:00")
  const [to, setTo] = useState("12:00")
  const [note, setNote] = useState("")
  const [problem, setProblem] = useState<string>()
  const add = () => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return setProblem(t`Choisissez une date.`)
    let startTime: string
    let endTime: string
    if (what === "dayOff") {
      const last = lastDate || date
      if (last < date) return setProblem(t`La fin doit être après le début.`)
      startTime = instantOf(date, "00:00", zone)
      const [y, m, d] = last.split("-").map(Number)
      endTime = new Date(new TZDate(y!, m! - 1, d! + 1, 0, 0, zone).getTime()).toISOString()
    } else {
      if (!(from < to)) return setProblem(t`La fin doit être après le début.`)
      startTime = instantOf(date, from, zone)
      endTime = instantOf(date, to, zone)
    }
    setProblem(undefined)
    onAdd({ kind: what === "openHours" ? "open" : "closed", startTime, endTime, note: note.trim() === "" ? null : note.trim() })
    setNote("")
  }
  return (
    <fieldset className="availability-exception-form">
      <legend>{t`Ajouter une exception`}</legend>
      <div className="field">
        <label htmlFor="exception-kind">{t`Type`}</label>
        <select id="exception-kind" value={what} onChange={(e) => setWhat(e.target.value as typeof what)}>
          <option value="dayOff">{t`Jour(s) de congé`}</option>
          <option value="closedHours">{t`Heures indisponibles`}</option>
          <option value="openHours">{t`Heures d'ouverture en plus`}</option>
        </select>
      </div>
      <WhenField label={what === "dayOff" ? t`Du` : t`Date`} type="date" value={date} onChange={setDate} />
      {what === "dayOff" ? (
        <WhenField label={t`Au (inclus)`} type="date" value={lastDate} onChange={setLastDate} required={false} />
      ) : (
        <>
          <WhenField label={t`De`} type="time" value={from} onChange={setFrom} />
          <WhenField label={t`À`} type="time" value={to} onChange={setTo} />
        </>
      )}
      <TextField label={t`Note (facultative)`} name="exception-note" value={note} onChange={setNote} required={false} maxLength={200} />
      {problem ? <Alert kind="error">{problem}</Alert> : null}
      <button type="button" className="button-secondary" onClick={add}>
        {t`Ajouter l'exception`}
      </button>
    </fieldset>
  )
}

/** The plan has no zone of its own: it is the account's, named in words, changed in the settings. */
const ZoneLine = ({ zone }: { zone: string }) => {
  const { t, i18n } = useLingui()
  const name = zoneName(i18n.locale, zone)
  return (
    <p>
      {t`Horaires en ${name}, le fuseau de votre compte (il vaut aussi pour vos réservations et vos emails).`}{" "}
      <Link href="/settings">{t`Changer de fuseau`}</Link>
    </p>
  )
}

const Editor = ({ plan, onSaved }: { plan: Availability; onSaved: (plan: Availability) => void }) => {
  const { t, i18n } = useLingui()
  const [draft, setDraft] = useState<Draft>(() => draftOf(plan))
  const [busy, setBusy] = useState(false)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [failure, setFailure] = useState<string>()

  const save = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setFailure(undefined)
    setErrors({})
    try {
      const { data } = await availabilityApi.replace(
        {
          weekly: draft.weekly,
          exceptions: draft.exceptions,
          noticeMinutes: draft.noticeMinutes,
          bufferMinutes: draft.bufferMinutes
        },
        [422]
      )
      showToast("success", t`Disponibilités enregistrées.`)
      setDraft(draftOf(data))
      onSaved(data)
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) {
        setErrors(error.fieldErrors())
        setFailure(error.message)
      } else setFailure(failureText(error))
    } finally {
      setBusy(false)
    }
  }

  const fieldError = (prefix: string) =>
    Object.entries(errors)
      .filter(([field]) => field === prefix || field.startsWith(`${prefix}.`) || field.startsWith(`${prefix}[`))
      .map(([, message]) => message)
      .join(" ")

  return (
    <form onSubmit={save} noValidate>
      {plan.isDefault ? (
        <Alert kind="info">{t`Pas encore de plan : vous êtes ouvert de 08:00 à 20:00 tous les jours. Enregistrez vos horaires pour les changer.`}</Alert>
      ) : null}
      <ZoneLine zone={draft.timeZone} />
      {failure ? <Alert kind="error">{failure}</Alert> : null}
      <div className="availability-layout">
        <section aria-labelledby="week-heading">
          <h2 id="week-heading">{t`Semaine type`}</h2>
          <WeekEditor
            week={draft.weekly}
            errorOf={(index) => fieldError(`weekly[${index}]`)}
            onChange={(weekly) => setDraft((d) => ({ ...d, weekly }))}
          />
        </section>
        <div className="availability-side">
          <section aria-labelledby="exceptions-heading">
            <h2 id="exceptions-heading">{t`Exceptions`}</h2>
            {draft.exceptions.length === 0 ? <p>{t`Aucune exception.`}</p> : null}
            <ul className="availability-exceptions">
              {draft.exceptions.map((exception, index) => {
                const when = formatDateRange(i18n.locale, new Date(exception.startTime), new Date(exception.endTime))
                const error = fieldError(`exceptions[${index}]`)
                return (
                  <li key={`${exception.startTime}-${index}`}>
                    <strong>{exception.kind === "closed" ? t`Indisponible` : t`Ouvert en plus`}</strong> {when}
                    {exception.note ? ` (${exception.note})` : null}{" "}
                    <button
                      type="button"
                      className="button-ghost button-small"
                      onClick={() => setDraft((d) => ({ ...d, exceptions: d.exceptions.filter((_, i) => i !== index) }))}
                    >
                      {t`Supprimer`}
                      <span className="sr-only">{` ${when}`}</span>
                    </button>
                    {error ? <p className="field-error">{error}</p> : null}
                  </li>
                )
              })}
            </ul>
            <ExceptionForm
              zone={draft.timeZone}
              onAdd={(exception) => setDraft((d) => ({ ...d, exceptions: [...d.exceptions, exception] }))}
            />
          </section>
          <section aria-labelledby="rules-heading">
            <h2 id="rules-heading">{t`Délais`}</h2>
            <TextField
              label={t`Préavis minimum (minutes)`}
              name="noticeMinutes"
              type="number"
              min={0}
              max={NOTICE_MAX_MINUTES}
              value={draft.noticeMinutes}
              onChange={(noticeMinutes) => setDraft((d) => ({ ...d, noticeMinutes }))}
              error={errors.noticeMinutes}
              hint={t`Une réservation commence au plus tôt après ce délai.`}
            />
            <TextField
              label={t`Marge entre deux réservations (minutes)`}
              name="bufferMinutes"
              type="number"
              min={0}
              max={BUFFER_MAX_MINUTES}
              value={draft.bufferMinutes}
              onChange={(bufferMinutes) => setDraft((d) => ({ ...d, bufferMinutes }))}
              error={errors.bufferMinutes}
            />
          </section>
        </div>
      </div>
      <div className="actions">
        <SubmitButton busy={busy}>{t`Enregistrer mes disponibilités`}</SubmitButton>
      </div>
    </form>
  )
}

export default function ProviderAvailability() {
  const { t, i18n } = useLingui()
  const user = useAtomValue(userAtom)
  const [saved, setSaved] = useState<Availability | null>(null)
  const [state, reload] = useAsync(() => availabilityApi.of(user?.id ?? "").then(({ data }) => data), [user?.id, i18n.locale])
  return (
    <Page title={t`Mes disponibilités`}>
      <div className="actions page-actions">
        <Link href="/provider/calendar" className="button-secondary">
          {t`Calendrier`}
        </Link>
        <Link href="/services/my" className="button-secondary">
          {t`Mes services`}
        </Link>
      </div>
      <Loaded
        state={state}
        current={saved}
        loadingLabel={t`Chargement de vos disponibilités…`}
        errorTitle={t`Erreur lors du chargement de vos disponibilités`}
        errorSubtitle={t`Réessayez dans un instant.`}
        onRetry={() => reload()}
      >
        {(plan) => <Editor key={plan.isDefault ? "default" : "set"} plan={plan} onSaved={setSaved} />}
      </Loaded>
      <CalendarFeedBlock />
    </Page>
  )
}
