import { useLingui } from "@lingui/react/macro"
import { useMemo } from "react"
import { copyDay, type CopyTarget, type DayRange, timeChoices, type WeekDay } from "../../booking/week"
import { RANGES_PER_DAY_MAX } from "../../../src/modules/booking/availability/rules"

/**
 * The availability plan's week as a compact table (issue 23, item 15): a row per day, its ranges side
 * by side, each a start and an end picked every quarter of an hour (24-hour times in French, as the
 * reader's locale writes them), a range added or removed, and the day's ranges copied to other days.
 */

/** A time as the reader's locale writes it: "09:00" in French, "9:00 AM" in English; "24:00" is midnight. */
const useTimeLabel = () => {
  const { t, i18n } = useLingui()
  // One formatter per locale (each costs tens of µs; every select of the week lists 96 times).
  const format = useMemo(() => {
    const french = i18n.locale.startsWith("fr")
    return new Intl.DateTimeFormat(i18n.locale, {
      hour: french ? "2-digit" : "numeric",
      minute: "2-digit",
      timeZone: "UTC",
      ...(french ? { hourCycle: "h23" as const } : {})
    })
  }, [i18n.locale])
  return (clock: string) => {
    if (clock === "24:00") return t`minuit`
    const [hours, minutes] = clock.split(":").map(Number)
    return format.format(Date.UTC(2024, 0, 1, hours, minutes))
  }
}

const TimeSelect = ({
  label,
  edge,
  value,
  onChange
}: {
  label: string
  edge: "start" | "end"
  value: string
  onChange: (value: string) => void
}) => {
  const timeLabel = useTimeLabel()
  return (
    <label className="week-time">
      <span className="sr-only">{label}</span>
      <select value={value} onChange={(event) => onChange(event.target.value)}>
        {timeChoices(edge, value).map((clock) => (
          <option key={clock} value={clock}>
            {timeLabel(clock)}
          </option>
        ))}
      </select>
    </label>
  )
}

const RangeRow = ({
  dayName,
  index,
  range,
  onChange,
  onRemove
}: {
  dayName: string
  index: number
  range: DayRange
  onChange: (range: DayRange) => void
  onRemove: () => void
}) => {
  const { t } = useLingui()
  return (
    <div className="week-range" role="group" aria-label={t`${dayName}, plage ${index + 1}`}>
      <TimeSelect label={t`De`} edge="start" value={range.start} onChange={(start) => onChange({ ...range, start })} />
      <span aria-hidden="true">–</span>
      <TimeSelect label={t`À`} edge="end" value={range.end} onChange={(end) => onChange({ ...range, end })} />
      <button type="button" className="button-ghost button-small week-remove" onClick={onRemove}>
        <span aria-hidden="true">×</span>
        <span className="sr-only">{t`Retirer ${dayName} ${range.start}–${range.end}`}</span>
      </button>
    </div>
  )
}

/** "Copier vers…": every other day, Monday to Friday, or one other day. */
const CopyMenu = ({
  day,
  dayName,
  names,
  onCopy
}: {
  day: number
  dayName: string
  names: (weekday: number) => string
  onCopy: (target: CopyTarget) => void
}) => {
  const { t } = useLingui()
  return (
    <select
      className="week-copy"
      aria-label={t`Copier les horaires du ${dayName}`}
      value=""
      onChange={(event) => {
        const value = event.target.value
        if (value !== "") onCopy(value === "all" || value === "weekdays" ? value : Number(value))
      }}
    >
      <option value="">{t`Copier vers…`}</option>
      <option value="all">{t`tous les jours`}</option>
      <option value="weekdays">{t`du lundi au vendredi`}</option>
      {[1, 2, 3, 4, 5, 6, 7]
        .filter((weekday) => weekday !== day)
        .map((weekday) => (
          <option key={weekday} value={weekday}>
            {names(weekday)}
          </option>
        ))}
    </select>
  )
}

export const WeekEditor = <D extends WeekDay & { ranges: Array<DayRange> }>({
  week,
  errorOf,
  onChange
}: {
  week: ReadonlyArray<D>
  /** The server's message for a day (by its index in `week`), "" when none. */
  errorOf: (index: number) => string
  onChange: (week: Array<D>) => void
}) => {
  const { t, i18n } = useLingui()
  const dayFormat = new Intl.DateTimeFormat(i18n.locale, { weekday: "long", timeZone: "UTC" })
  // 2024-01-01 was a Monday: ISO weekday n is 2024-01-n.
  const nameOf = (weekday: number) => dayFormat.format(new Date(Date.UTC(2024, 0, weekday)))
  const setRanges = (weekday: number, ranges: Array<DayRange>) =>
    onChange(week.map((day) => (day.weekday === weekday ? { ...day, ranges } : day)))
  return (
    <ul className="week-editor">
      {week.map((day, index) => {
        const name = nameOf(day.weekday)
        const error = errorOf(index)
        return (
          <li key={day.weekday} className="week-row">
            <h3 className="week-day">{name}</h3>
            <div className="week-ranges">
              {day.ranges.length === 0 ? <span className="field-hint">{t`Fermé`}</span> : null}
              {day.ranges.map((range, r) => (
                <RangeRow
                  key={r}
                  dayName={name}
                  index={r}
                  range={range}
                  onChange={(next) =>
                    setRanges(
                      day.weekday,
                      day.ranges.map((x, i) => (i === r ? next : x))
                    )
                  }
                  onRemove={() =>
                    setRanges(
                      day.weekday,
                      day.ranges.filter((_, i) => i !== r)
                    )
                  }
                />
              ))}
            </div>
            <div className="week-actions">
              {day.ranges.length < RANGES_PER_DAY_MAX ? (
                <button
                  type="button"
                  className="button-secondary button-small"
                  onClick={() => setRanges(day.weekday, [...day.ranges, { start: "09:00", end: "17:00" }])}
                >
                  {t`+ Plage`}
                  <span className="sr-only">{` ${name}`}</span>
                </button>
              ) : null}
              <CopyMenu day={day.weekday} dayName={name} names={nameOf} onCopy={(target) => onChange(copyDay(week, day.weekday, target))} />
            </div>
            {error ? (
              <p className="field-error week-error" role="alert">
                {error}
              </p>
            ) : null}
          </li>
        )
      })}
    </ul>
  )
}
