// Cron expressions (the in-memory adapter's schedules; pg-boss reads cron itself).

export interface CronExpression {
  readonly minutes: ReadonlySet<number>
  readonly hours: ReadonlySet<number>
  readonly daysOfMonth: ReadonlySet<number>
  readonly months: ReadonlySet<number>
  readonly daysOfWeek: ReadonlySet<number>
  /** Standard cron: when both day fields are restricted, a day matching either one runs. */
  readonly anyDayOfMonth: boolean
  readonly anyDayOfWeek: boolean
}

const parseCronField = (text: string, min: number, max: number): Set<number> | undefined => {
  const values = new Set<number>()
  for (const part of text.split(",")) {
    const match = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part)
    if (!match) return undefined
    const step = match[4] === undefined ? 1 : Number(match[4])
    const from = match[1] === "*" ? min : Number(match[2])
    // `5/15` (a start with a step) runs to the end of the range, as in most crons.
    const to = match[1] === "*" ? max : match[3] !== undefined ? Number(match[3]) : match[4] !== undefined ? max : from
    if (step < 1 || from < min || to > max || from > to) return undefined
    for (let value = from; value <= to; value += step) values.add(value)
  }
  return values
}

/**
 * The five standard fields (minute hour day-of-month month day-of-week) with `*`, numbers, ranges,
 * lists and steps, in UTC. Names (`MON`, `JAN`), `L`, `W`, `#` and seconds are not supported.
 */
export const parseCron = (expression: string): CronExpression | undefined => {
  const fields = expression.trim().split(/\s+/)
  if (fields.length !== 5) return undefined
  const [minute, hour, dayOfMonth, month, dayOfWeek] = fields as [string, string, string, string, string]
  const minutes = parseCronField(minute, 0, 59)
  const hours = parseCronField(hour, 0, 23)
  const daysOfMonth = parseCronField(dayOfMonth, 1, 31)
  const months = parseCronField(month, 1, 12)
  const daysOfWeek = parseCronField(dayOfWeek, 0, 7)
  if (!minutes || !hours || !daysOfMonth || !months || !daysOfWeek) return undefined
  if (daysOfWeek.delete(7)) daysOfWeek.add(0)
  return {
    minutes,
    hours,
    daysOfMonth,
    months,
    daysOfWeek,
    anyDayOfMonth: dayOfMonth.startsWith("*"),
    anyDayOfWeek: dayOfWeek.startsWith("*")
  }
}

/** The first time (epoch ms, a whole minute) strictly after `after` that matches, if any within 5 years. */
export const nextCronTime = (cron: CronExpression, after: number): number | undefined => {
  let t = new Date(Math.floor(after / 60_000) * 60_000 + 60_000)
  const limit = after + 5 * 366 * 86_400_000
  while (t.getTime() <= limit) {
    const [y, mo, d, h] = [t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate(), t.getUTCHours()]
    if (!cron.months.has(mo + 1)) {
      t = new Date(Date.UTC(y, mo + 1, 1))
      continue
    }
    const domMatch = cron.daysOfMonth.has(d)
    const dowMatch = cron.daysOfWeek.has(t.getUTCDay())
    const dayMatch = cron.anyDayOfMonth || cron.anyDayOfWeek ? domMatch && dowMatch : domMatch || dowMatch
    if (!dayMatch) {
      t = new Date(Date.UTC(y, mo, d + 1))
      continue
    }
    if (!cron.hours.has(h)) {
      t = new Date(Date.UTC(y, mo, d, h + 1))
      continue
    }
    if (!cron.minutes.has(t.getUTCMinutes())) {
      t = new Date(t.getTime() + 60_000)
      continue
    }
    return t.getTime()
  }
  return undefined
}
