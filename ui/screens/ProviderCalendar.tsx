import { TZDate } from "@date-fns/tz"
import { Plural, useLingui } from "@lingui/react/macro"
import { useAtomValue } from "jotai"
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from "react"
import { DayPicker } from "react-day-picker"
import { enUS } from "react-day-picker/locale/en-US"
import { fr } from "react-day-picker/locale/fr"
import { Link } from "wouter"
import { availabilityApi, bookingsApi } from "../api/endpoints"
import type { Availability, CalendarEvent } from "../api/contract"
import { userAtom } from "../state/session"
import { statusTone } from "../booking/labels"
import {
  atTime,
  DAY_END_HOUR,
  DAY_START_HOUR,
  daysOf,
  eventsOnDay,
  hhmm,
  hourSlots,
  inZone,
  sameDayIn,
  layoutDay,
  REFRESH_MS,
  sameDay,
  shiftDate,
  startOfDay,
  viewRange,
  type CalendarView,
  type WeekStart
} from "../booking/rules"
import { reasonOf } from "../components/booking/ActionDialogs"
import { BookingNotes, DateRange, StatusBadge, usePaymentLabel } from "../components/booking/parts"
import { OpenProposal, RescheduleHistory } from "../components/booking/Reschedule"
import { showToast } from "../state/toasts"
import { formatPrice, zoneName } from "../format"
import { useAsync } from "../components/async"
import { Alert } from "../components/forms"
import { useLive } from "../components/live"
import { MOBILE_QUERY, useMediaQuery } from "../components/media"
import { Modal } from "../components/Modal"
import { Loaded } from "../components/loaded"
import { Page } from "../components/page"
import { useViewerZone } from "../state/session"
import { useDayPickerLabels } from "../components/day-picker-labels"

/** Whether the provider's plan has them open at an instant (its weekly ranges in its zone, then its exceptions). */
const isOpenAt = (plan: Availability, at: Date) => {
  const inside = (e: Availability["exceptions"][number]) => Date.parse(e.startTime) <= at.getTime() && at.getTime() < Date.parse(e.endTime)
  if (plan.exceptions.some((e) => e.kind === "closed" && inside(e))) return false
  if (plan.exceptions.some((e) => e.kind === "open" && inside(e))) return true
  const wall = new TZDate(at.getTime(), plan.timeZone)
  const weekday = wall.getDay() === 0 ? 7 : wall.getDay()
  const minutes = `${String(wall.getHours()).padStart(2, "0")}:${String(wall.getMinutes()).padStart(2, "0")}`
  return (plan.weekly.find((d) => d.weekday === weekday)?.ranges ?? []).some((r) => r.start <= minutes && minutes < r.end)
}

/** The grid's hours of a day with no open quarter hour: shaded as unavailable. */
const closedHours = (plan: Availability | undefined, day: Date) =>
  plan === undefined
    ? []
    : hourSlots().filter((hour) =>
        [0, 15, 30, 45].every((minute) => {
          return !isOpenAt(plan, atTime(day, hour, minute))
        })
      )

/** Events a month cell lists before "+n more" (each takes two lines: time, then title). */
const MONTH_CELL_MAX = 2

/** "lundi 2 juin" → "Lundi 2 juin" (only the first letter: French months stay lower case). */
const capitalize = (text: string, locale: string) => text.charAt(0).toLocaleUpperCase(locale) + text.slice(1)

/** An instant as UTC ISO (a zoned date's own toISOString writes its offset). */
const utcIso = (date: Date) => new Date(date.getTime()).toISOString()

/** "09:00" and "10:00" in the calendar's zone (the provider's). */
const timesOf = (event: CalendarEvent, zone: string) => [hhmm(inZone(event.startTime, zone)), hhmm(inZone(event.endTime, zone))] as const

/** An event: service title with client first name, the time and the client name (spec section 2). */
const EventButton = ({ event, onOpen, compact = false }: { event: CalendarEvent; onOpen: (id: string) => void; compact?: boolean }) => {
  const { t } = useLingui()
  const zone = useViewerZone()
  const client = `${event.clientFirstName} ${event.clientLastName}`
  const [start, end] = timesOf(event, zone)
  // The time never shortens (a narrow cell hides its end from the eye only, see navlang.css); the
  // title takes an ellipsis. The whole text stays in the name and the tooltip.
  return (
    <button
      type="button"
      className={`calendar-event event-${statusTone[event.displayStatus]}`}
      title={`${start}–${end} ${event.title} (${client})`}
      onClick={() => onOpen(event.id)}
    >
      <span className="event-time">
        {start}
        <span className="event-end">–{end}</span>
      </span>{" "}
      <span className="event-title">{event.title}</span>
      <span className={compact ? "sr-only" : "event-client"}>
        <span className="sr-only">{t`Client :`} </span>
        {client}
      </span>
    </button>
  )
}

const MonthGrid = ({
  days,
  month,
  events,
  locale,
  onOpen,
  onDay
}: {
  days: ReadonlyArray<Date>
  month: number
  events: ReadonlyArray<CalendarEvent>
  locale: string
  onOpen: (id: string) => void
  onDay: (day: Date) => void
}) => {
  const { t } = useLingui()
  const zone = useViewerZone()
  const weekday = new Intl.DateTimeFormat(locale, { weekday: "short", timeZone: zone })
  const weekdayLong = new Intl.DateTimeFormat(locale, { weekday: "long", timeZone: zone })
  const full = new Intl.DateTimeFormat(locale, { dateStyle: "full", timeZone: zone })
  const weeks = Array.from({ length: days.length / 7 }, (_, i) => days.slice(i * 7, i * 7 + 7))
  const today = inZone(Date.now(), zone)
  return (
    <div className="calendar-scroll" tabIndex={0} role="region" aria-label={t`Grille du calendrier`}>
      <table className="month-grid">
        <thead>
          <tr>
            {weeks[0]?.map((day) => (
              <th key={day.getDay()} scope="col">
                <abbr title={capitalize(weekdayLong.format(day), locale)}>{capitalize(weekday.format(day), locale)}</abbr>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={week[0]!.toISOString()}>
              {week.map((day) => {
                const list = eventsOnDay(events, day)
                const more = list.length - MONTH_CELL_MAX
                const label = full.format(day)
                const classes = ["month-cell", day.getMonth() !== month ? "month-outside" : "", sameDay(day, today) ? "month-today" : ""]
                  .filter(Boolean)
                  .join(" ")
                return (
                  <td key={day.toISOString()} className={classes}>
                    <button type="button" className="month-day" onClick={() => onDay(day)} aria-label={t`Voir la journée du ${label}`}>
                      {day.getDate()}
                    </button>
                    {list.length > 0 ? (
                      <ul className="month-events">
                        {list.slice(0, MONTH_CELL_MAX).map((event) => (
                          <li key={event.id}>
                            <EventButton event={event} onOpen={onOpen} compact />
                          </li>
                        ))}
                        {more > 0 ? (
                          <li>
                            <button type="button" className="button-ghost button-small month-more" onClick={() => onDay(day)}>
                              <Plural value={more} one="+# autre" other="+# autres" />
                              <span className="sr-only"> : {label}</span>
                            </button>
                          </li>
                        ) : null}
                      </ul>
                    ) : null}
                  </td>
                )
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

const TimeGrid = ({
  days,
  events,
  plan,
  locale,
  onOpen
}: {
  days: ReadonlyArray<Date>
  events: ReadonlyArray<CalendarEvent>
  plan: Availability | undefined
  locale: string
  onOpen: (id: string) => void
}) => {
  const { t } = useLingui()
  const zone = useViewerZone()
  const heading = new Intl.DateTimeFormat(
    locale,
    days.length === 1 ? { dateStyle: "full", timeZone: zone } : { weekday: "short", day: "numeric", month: "short", timeZone: zone }
  )
  const hours = hourSlots()
  const today = inZone(Date.now(), zone)
  return (
    <div className="calendar-scroll" tabIndex={0} role="region" aria-label={t`Grille du calendrier`}>
      <div
        className={days.length === 1 ? "time-grid time-grid-day" : "time-grid"}
        style={{ ["--days" as string]: days.length, ["--hours" as string]: DAY_END_HOUR - DAY_START_HOUR }}
      >
        <div className="time-axis" aria-hidden="true">
          <div className="time-head" />
          <div className="time-body">
            {hours.map((hour) => (
              <div key={hour} className="time-label">
                {`${String(hour).padStart(2, "0")}:00`}
              </div>
            ))}
          </div>
        </div>
        {days.map((day) => {
          const placed = layoutDay(events, day)
          return (
            <DayColumn key={day.toISOString()} title={capitalize(heading.format(day), locale)} today={sameDay(day, today)}>
              {closedHours(plan, day).map((hour) => (
                <div
                  key={hour}
                  className="hour-unavailable"
                  title={t`Heures indisponibles (hors disponibilités)`}
                  style={{
                    top: `${((hour - DAY_START_HOUR) / (DAY_END_HOUR - DAY_START_HOUR)) * 100}%`,
                    height: `${100 / (DAY_END_HOUR - DAY_START_HOUR)}%`
                  }}
                  aria-hidden="true"
                />
              ))}
              {placed.length === 0 ? <p className="sr-only">{t`Aucune réservation`}</p> : null}
              <ol className="day-events">
                {placed.map(({ event, top, height, column, columns, clipped }) => (
                  <li
                    key={event.id}
                    className={clipped ? "day-event day-event-clipped" : "day-event"}
                    style={{ top: `${top}%`, height: `${height}%`, left: `${(column / columns) * 100}%`, width: `${100 / columns}%` }}
                  >
                    <EventButton event={event} onOpen={onOpen} />
                  </li>
                ))}
              </ol>
            </DayColumn>
          )
        })}
      </div>
    </div>
  )
}

/** On a phone the small month folds away under its summary. */
const MobilePicker = ({ label, children }: { label: string; children: ReactNode }) => (
  <details className="calendar-picker">
    <summary>{label}</summary>
    {children}
  </details>
)

const DayColumn = ({ title, today, children }: { title: string; today: boolean; children: ReactNode }) => {
  const headingId = useId()
  return (
    <section className={today ? "day-column day-today" : "day-column"} aria-labelledby={headingId}>
      <h3 id={headingId} className="time-head day-head">
        {title}
      </h3>
      <div className="time-body day-body">
        <div className="hour-lines" aria-hidden="true" />
        {children}
      </div>
    </section>
  )
}

/** What the provider may see of a booking (GET /bookings/{id}); not the admin screen. */
const BookingDetailDialog = ({ id, onClose }: { id: string; onClose: () => void }) => {
  const { t, i18n } = useLingui()
  const failureOf = (error: unknown) => {
    const reason = reasonOf(error)
    return t`Impossible de charger la réservation : ${reason}`
  }
  const paymentLabel = usePaymentLabel()
  const [state, reload] = useAsync(() => bookingsApi.get(id).then(({ data }) => data.booking), [id, i18n.locale])
  const [answering, setAnswering] = useState(false)
  return (
    <Modal title={t`Détails de la réservation`} onClose={onClose}>
      <Loaded
        state={state}
        loadingLabel={t`Chargement de la réservation…`}
        failure={(error) => (
          <Alert kind="error">
            <p>{failureOf(error)}</p>
            <button type="button" className="button-secondary" onClick={() => reload()}>
              {t`Réessayer`}
            </button>
          </Alert>
        )}
      >
        {(booking) => (
          <>
            <dl className="facts booking-facts">
              <dt>{t`Service`}</dt>
              <dd>
                <Link href={`/services/${booking.serviceId}`}>{booking.service.title}</Link>
              </dd>
              <dt>{t`Client`}</dt>
              <dd>{`${booking.client.firstName} ${booking.client.lastName}`}</dd>
              <dt>{t`Date`}</dt>
              <dd>
                <DateRange start={booking.startTime} end={booking.endTime} other={{ zone: booking.clientTimeZone, who: "client" }} />
              </dd>
              <dt>{t`Adresse`}</dt>
              <dd>{booking.address}</dd>
              <dt>{t`Statut`}</dt>
              <dd>
                <StatusBadge status={booking.displayStatus} />
              </dd>
              <dt>{t`Paiement`}</dt>
              <dd>{paymentLabel(booking.paymentStatus)}</dd>
              <dt>{t`Total`}</dt>
              <dd>{formatPrice(i18n.locale, booking.totalPrice, booking.currency)}</dd>
              <BookingNotes booking={booking} />
            </dl>
            <OpenProposal
              booking={booking}
              busy={answering}
              onAnswer={(proposal, answer) => {
                setAnswering(true)
                bookingsApi.answerReschedule(id, proposal.id, answer).then(
                  () => {
                    setAnswering(false)
                    showToast(
                      "success",
                      answer === "accept" ? t`Nouvel horaire accepté : la réservation est déplacée.` : t`Nouvel horaire refusé.`
                    )
                    reload()
                  },
                  (error: unknown) => {
                    setAnswering(false)
                    const reason = reasonOf(error)
                    showToast("error", t`La réponse à la proposition a échoué : ${reason}`)
                  }
                )
              }}
            />
            <RescheduleHistory booking={booking} />
            <div className="actions">
              <Link href={`/bookings?booking=${encodeURIComponent(id)}`} className="button">
                {t`Gérer dans mes réservations`}
              </Link>
            </div>
          </>
        )}
      </Loaded>
    </Modal>
  )
}

export default function ProviderCalendar() {
  const { t, i18n } = useLingui()
  const dayPickerLabels = useDayPickerLabels()
  const mobile = useMediaQuery(MOBILE_QUERY)
  const [view, setView] = useState<CalendarView>(() => (window.matchMedia(MOBILE_QUERY).matches ? "day" : "month"))
  // The calendar is laid out in the provider's own zone (their account's, else the browser's): its days
  // are that zone's days, its hours that zone's hours, whatever the browser's zone.
  const zone = useViewerZone()
  const [date, setDate] = useState(() => startOfDay(inZone(Date.now(), zone)))
  const [month, setMonth] = useState(() => startOfDay(inZone(Date.now(), zone)))
  const [openId, setOpenId] = useState<string>()
  const headingId = useId()
  // The account's zone may arrive after the first render (the session is checked at start): same day, new zone.
  useEffect(() => {
    setDate((current) => sameDayIn(current, zone))
  }, [zone])

  // The mobile layout has only day and week.
  useEffect(() => {
    if (mobile && view === "month") setView("day")
  }, [mobile, view])
  // The small month follows the date the grid shows.
  useEffect(() => {
    setMonth(date)
  }, [date])

  const isFrench = i18n.locale.startsWith("fr")
  const calendarZoneName = zoneName(i18n.locale, zone)
  const pickerLocale = isFrench ? fr : enUS
  const locale = isFrench ? "fr" : "en"
  const weekStartsOn = (pickerLocale.options?.weekStartsOn ?? (isFrench ? 1 : 0)) as WeekStart
  const days = useMemo(() => daysOf(view, date, weekStartsOn), [view, date, weekStartsOn])
  // One call covers the grid and the small month (its days with bookings are underlined).
  const grid = useMemo(() => viewRange(view, date, weekStartsOn), [view, date, weekStartsOn])
  const range = useMemo(() => {
    const picker = viewRange("month", month, weekStartsOn)
    return {
      start: grid.start < picker.start ? grid.start : picker.start,
      end: grid.end > picker.end ? grid.end : picker.end
    }
  }, [grid, month, weekStartsOn])
  const user = useAtomValue(userAtom)
  // The provider's plan shades the hours they are not available (the default plan until they set one).
  const [planState] = useAsync(() => availabilityApi.of(user?.id ?? "", true).then(({ data }) => data), [user?.id])
  const plan = planState.status === "ok" ? planState.data : undefined
  const [state, reload] = useLive(
    (fresh) => bookingsApi.calendar({ from: utcIso(range.start), to: utcIso(range.end) }, fresh).then(({ data }) => data),
    [range.start.getTime(), range.end.getTime()],
    REFRESH_MS,
    openId === undefined
  )
  // While another period loads, the last answer stays on screen (no flicker when paging).
  const lastEvents = useRef<ReadonlyArray<CalendarEvent> | null>(null)
  if (state.status === "ok") lastEvents.current = state.data

  const views: ReadonlyArray<readonly [CalendarView, string]> = mobile
    ? [
        ["day", t`Jour`],
        ["week", t`Semaine`]
      ]
    : [
        ["month", t`Mois`],
        ["week", t`Semaine`],
        ["day", t`Jour`]
      ]

  const label = capitalize(
    (() => {
      if (view === "month") return new Intl.DateTimeFormat(locale, { month: "long", year: "numeric", timeZone: zone }).format(date)
      if (view === "day") return new Intl.DateTimeFormat(locale, { dateStyle: "full", timeZone: zone }).format(date)
      const format = new Intl.DateTimeFormat(locale, { day: "numeric", month: "long", year: "numeric", timeZone: zone })
      const last = days[days.length - 1]!
      try {
        return format.formatRange(days[0]!, last)
      } catch {
        return `${format.format(days[0]!)} – ${format.format(last)}`
      }
    })(),
    locale
  )

  const events = state.status === "ok" ? state.data : (lastEvents.current ?? [])
  const bookedDays = useMemo(() => events.map((event) => startOfDay(inZone(event.startTime, zone))), [events, zone])
  const picker = (
    <>
      <DayPicker
        mode="single"
        required
        selected={date}
        onSelect={(day) => setDate(startOfDay(inZone(day, zone)))}
        month={month}
        onMonthChange={(day) => setMonth(inZone(day, zone))}
        timeZone={zone}
        locale={pickerLocale}
        labels={dayPickerLabels}
        weekStartsOn={weekStartsOn}
        showOutsideDays
        modifiers={{ booked: bookedDays }}
        modifiersClassNames={{ booked: "rdp-booked" }}
      />
      <p className="field-hint">{t`Les jours soulignés ont des réservations.`}</p>
    </>
  )

  return (
    <Page title={t`Calendrier des réservations`}>
      <div className="actions page-actions">
        <Link href="/services/my" className="button-secondary">
          {t`Mes services`}
        </Link>
        <Link href="/bookings" className="button-secondary">
          {t`Mes réservations`}
        </Link>
        <Link href="/provider/availability" className="button-secondary">
          {t`Mes disponibilités`}
        </Link>
      </div>
      <div className="calendar-layout">
        <aside className="calendar-side" aria-label={t`Aller à une date`}>
          {mobile ? <MobilePicker label={t`Aller à une date`}>{picker}</MobilePicker> : picker}
        </aside>
        <section className="calendar-main" aria-labelledby={headingId}>
          <div className="calendar-toolbar">
            <div className="actions calendar-nav">
              <button type="button" className="button-secondary button-small" onClick={() => setDate(shiftDate(view, date, -1))}>
                <span aria-hidden="true">‹ </span>
                <span className="nav-text">{t`Période précédente`}</span>
              </button>
              <button type="button" className="button-secondary button-small" onClick={() => setDate(startOfDay(inZone(Date.now(), zone)))}>
                {t`Revenir à aujourd'hui`}
              </button>
              <button type="button" className="button-secondary button-small" onClick={() => setDate(shiftDate(view, date, 1))}>
                <span className="nav-text">{t`Période suivante`}</span>
                <span aria-hidden="true"> ›</span>
              </button>
            </div>
            <h2 id={headingId} className="calendar-label" aria-live="polite">
              {label}
            </h2>
            <p className="field-hint calendar-zone" data-testid="calendar-zone">
              {t`Horaires à l’${calendarZoneName}`}
            </p>
            <div className="segmented" role="group" aria-label={t`Vue du calendrier`}>
              {views.map(([value, name]) => (
                <button key={value} type="button" className="segment" aria-pressed={view === value} onClick={() => setView(value)}>
                  {name}
                </button>
              ))}
            </div>
          </div>
          {/* While another period loads, the last answer stays on screen (no flicker when paging). */}
          <Loaded
            state={state}
            current={state.status === "loading" ? lastEvents.current : null}
            loadingLabel={t`Chargement du calendrier…`}
            failure={(error) => (
              <Alert kind="error" title={t`Erreur lors du chargement du calendrier`}>
                <p>{reasonOf(error)}</p>
                <button type="button" className="button-secondary" onClick={() => reload()}>
                  {t`Réessayer`}
                </button>
              </Alert>
            )}
          >
            {(loaded) => (
              <>
                {!loaded.some((event) => new Date(event.startTime) < grid.end && new Date(event.endTime) > grid.start) ? (
                  <p className="calendar-empty">{t`Aucune réservation sur cette période.`}</p>
                ) : null}
                {view === "month" ? (
                  <MonthGrid
                    days={days}
                    month={date.getMonth()}
                    events={loaded}
                    locale={locale}
                    onOpen={setOpenId}
                    onDay={(day) => {
                      setDate(day)
                      setView("day")
                    }}
                  />
                ) : (
                  <>
                    <TimeGrid days={days} events={loaded} plan={plan} locale={locale} onOpen={setOpenId} />
                    {plan ? <p className="field-hint">{t`Les heures grisées sont en dehors de vos disponibilités.`}</p> : null}
                  </>
                )}
              </>
            )}
          </Loaded>
        </section>
      </div>
      {openId ? <BookingDetailDialog id={openId} onClose={() => setOpenId(undefined)} /> : null}
    </Page>
  )
}
