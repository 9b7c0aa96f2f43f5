import { plural } from "@lingui/core/macro"
import { useLingui } from "@lingui/react/macro"
import { useEffect, useId, useMemo, useState } from "react"
import { DayPicker } from "react-day-picker"
import { enUS } from "react-day-picker/locale/en-US"
import { fr } from "react-day-picker/locale/fr"
import { Link } from "wouter"
import { type SlotSource, slotsApi } from "../../api/endpoints"
import type { Slot } from "../../api/contract"
import {
  dayKey,
  dayStart,
  durationChoices,
  lastMonth,
  monthKey,
  monthStart,
  monthWindow,
  NEXT_SLOTS_DAYS,
  NEXT_SLOTS_SHOWN,
  nextSlotWindows,
  slotsByDay,
  upcoming
} from "../../booking/slots"
import { durationParts } from "../../catalogue/rules"
import { formatDayIn, formatTimeIn, zoneCity } from "../../format"
import { useAsync } from "../async"
import { Loaded } from "../loaded"
import { useDayPickerLabels } from "../day-picker-labels"

/** A duration as text ("45 min", "2 h 30 min", "2 jours"), for the options of a select. */
export const useDurationText = () => {
  const { t } = useLingui()
  return (total: number) => {
    const parts = durationParts(total)
    switch (parts.unit) {
      case "minutes": {
        const count = parts.minutes
        return t`${count} min`
      }
      case "hours": {
        const { hours, minutes: rest } = parts
        return rest === 0 ? t`${hours} h` : t`${hours} h ${rest} min`
      }
      case "days": {
        const { days, hours } = parts
        const dayText = plural(days, { one: "# jour", other: "# jours" })
        return hours > 0 ? `${dayText} ${t`${hours} h`}` : dayText
      }
    }
  }
}

/**
 * A slot's start in the viewer's zone, with the provider's beside it when their zone differs
 * ("10:00 (16:00, heure de Paris)").
 */
export const SlotTime = ({ slot, zone, providerZone }: { slot: Slot; zone: string; providerZone: string | undefined }) => {
  const { t, i18n } = useLingui()
  const time = formatTimeIn(i18n.locale, slot.startTime, zone)
  if (providerZone === undefined || providerZone === zone) return <>{time}</>
  const theirs = formatTimeIn(i18n.locale, slot.startTime, providerZone)
  const place = zoneCity(i18n.locale, providerZone) ?? providerZone
  return (
    <>
      {time} <span className="slot-other-zone">{t`(${theirs}, heure de ${place})`}</span>
    </>
  )
}

/**
 * Choosing a booking's time among the provider's free slots: the duration, a month where the days
 * without a free slot are disabled (one call per month shown, cached), then the chosen day's free
 * start times, in the viewer's zone with the provider's beside them when it differs. Nothing free in
 * the next 60 days says so, with a link to write to the provider.
 */
export const SlotPicker = ({
  source,
  providerId,
  zone,
  duration,
  defaultDuration,
  startTime,
  round,
  error,
  onDuration,
  onStart
}: {
  /** Whose free slots: the service's (booking), or the booking's (moving it: its own time left out). */
  source: SlotSource
  providerId: string
  /** The viewer's zone: days and times are theirs. */
  zone: string
  duration: number
  defaultDuration: number
  /** The chosen start (an ISO instant), "" when none. */
  startTime: string
  /** Changed by the form to load the slots anew (after a refusal for a slot just taken; it drops the cached slots first). */
  round: number
  error: string | undefined
  onDuration: (minutes: number) => void
  onStart: (startTime: string) => void
}) => {
  const { t, i18n } = useLingui()
  const dayPickerLabels = useDayPickerLabels()
  const durationText = useDurationText()
  const durationId = useId()
  const timesId = useId()
  const errorId = useId()
  const now = useMemo(() => new Date(), [round])
  const isFrench = i18n.locale.startsWith("fr")
  const sourceId = "serviceId" in source ? source.serviceId : source.bookingId

  // The month shown: the chosen slot's, else this month until the first free slot is known.
  const [month, setMonth] = useState(() => monthStart(startTime === "" ? now : startTime, zone))
  const [day, setDay] = useState<string | undefined>(startTime === "" ? undefined : dayKey(startTime, zone))
  const [browsed, setBrowsed] = useState(startTime !== "")

  const [next, reloadNext] = useAsync(
    () => slotsApi.next(source, duration, nextSlotWindows(new Date()), NEXT_SLOTS_SHOWN),
    [sourceId, duration, round]
  )
  const nextSlots = next.status === "ok" ? upcoming(next.data.slots, now) : undefined
  // Until the visitor picks a day or a month, the picker opens on the first free slot.
  useEffect(() => {
    if (browsed || nextSlots === undefined) return
    const first = nextSlots[0]
    if (first === undefined) return
    setMonth(monthStart(first.startTime, zone))
    setDay(dayKey(first.startTime, zone))
  }, [next, browsed])

  const currentMonth = monthKey(month, zone)
  const window = monthWindow(month, zone, now)
  const [monthState, reloadMonth] = useAsync(
    () => (window === undefined ? Promise.resolve(undefined) : slotsApi.month(source, `${zone}:${currentMonth}`, window, duration)),
    [sourceId, duration, currentMonth, zone, round]
  )
  const monthSlots = monthState.status === "ok" && monthState.data !== undefined ? upcoming(monthState.data.slots, now) : []
  const byDay = useMemo(() => slotsByDay(monthSlots, zone), [monthState, zone])
  const providerZone =
    (monthState.status === "ok" ? monthState.data?.timeZone : undefined) ?? (next.status === "ok" ? next.data.timeZone : undefined)

  const dayTimes = day !== undefined && day.startsWith(currentMonth) ? (byDay.get(day) ?? []) : []
  const chosenDay = day === undefined ? undefined : dayStart(day, zone)
  const chosenDayText = chosenDay ? formatDayIn(i18n.locale, chosenDay, zone) : ""
  const zonePlaceText = zoneCity(i18n.locale, zone) ?? zone
  const providerPlace = providerZone ? (zoneCity(i18n.locale, providerZone) ?? providerZone) : ""
  const days = NEXT_SLOTS_DAYS

  const footer =
    monthState.status === "loading"
      ? t`Chargement des disponibilités…`
      : monthState.status === "error"
        ? t`Les disponibilités n'ont pas pu être chargées.`
        : chosenDay
          ? t`Jour choisi : ${chosenDayText}`
          : t`Choisissez un jour libre (les autres sont grisés).`

  return (
    <fieldset className="slot-picker" aria-describedby={error ? errorId : undefined}>
      <legend>{t`Date et heure`}</legend>
      <div className="field">
        <label htmlFor={durationId}>{t`Durée`}</label>
        <select
          id={durationId}
          name="duration"
          value={duration}
          onChange={(event) => {
            onDuration(Number(event.target.value))
            onStart("")
          }}
        >
          {durationChoices(Math.max(duration, defaultDuration)).map((minutes) => (
            <option key={minutes} value={minutes}>
              {minutes === defaultDuration ? t`${durationText(minutes)} (durée du service)` : durationText(minutes)}
            </option>
          ))}
        </select>
      </div>
      <p className="field-hint">
        {providerZone && providerZone !== zone
          ? t`Horaires à l'heure de ${zonePlaceText} (votre fuseau horaire), avec l'heure de ${providerPlace} (celle du prestataire) entre parenthèses.`
          : t`Horaires à l'heure de ${zonePlaceText} (votre fuseau horaire).`}
      </p>
      {nextSlots !== undefined && nextSlots.length === 0 ? (
        <div className="alert alert-info" role="status">
          <p>
            {plural(days, {
              one: "Aucun créneau libre dans le # prochain jour : contactez le prestataire.",
              other: "Aucun créneau libre dans les # prochains jours : contactez le prestataire."
            })}
          </p>
          <Link href={`/messaging?userId=${encodeURIComponent(providerId)}`}>{t`Écrire au prestataire`}</Link>
        </div>
      ) : null}
      {next.status === "error" ? (
        <div className="alert alert-error" role="alert">
          <p>{t`Les prochains créneaux libres n'ont pas pu être chargés.`}</p>
          <button type="button" className="button-secondary" onClick={() => reloadNext()}>
            {t`Réessayer`}
          </button>
        </div>
      ) : null}
      <div className="slot-columns">
        <DayPicker
          mode="single"
          required
          timeZone={zone}
          locale={isFrench ? fr : enUS}
          labels={dayPickerLabels}
          selected={chosenDay}
          onSelect={(date: Date) => {
            setBrowsed(true)
            setDay(dayKey(date, zone))
          }}
          month={month}
          onMonthChange={(date: Date) => {
            setBrowsed(true)
            setMonth(monthStart(date, zone))
          }}
          startMonth={monthStart(now, zone)}
          endMonth={lastMonth(now, zone)}
          disabled={(date: Date) => !byDay.has(dayKey(date, zone))}
          footer={footer}
        />
        <div className="slot-times">
          <Loaded
            state={monthState}
            loadingLabel={t`Chargement des disponibilités…`}
            errorTitle={t`Erreur lors du chargement des disponibilités`}
            errorSubtitle={t`Réessayez dans un instant.`}
            onRetry={() => reloadMonth()}
          >
            {() =>
              chosenDay === undefined || dayTimes.length === 0 ? (
                <p className="empty-state">
                  {byDay.size === 0 ? t`Aucun créneau libre ce mois-ci : voyez le mois suivant.` : t`Choisissez un jour libre.`}
                </p>
              ) : (
                <>
                  <h3 id={timesId}>{t`Horaires libres le ${chosenDayText}`}</h3>
                  <ul className="slot-list" aria-labelledby={timesId}>
                    {dayTimes.map((slot) => (
                      <li key={slot.startTime}>
                        <button
                          type="button"
                          className="slot-button"
                          aria-pressed={slot.startTime === startTime}
                          onClick={() => onStart(slot.startTime)}
                        >
                          <SlotTime slot={slot} zone={zone} providerZone={providerZone} />
                        </button>
                      </li>
                    ))}
                  </ul>
                </>
              )
            }
          </Loaded>
        </div>
      </div>
      {error ? (
        <p className="field-error" id={errorId} role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  )
}
