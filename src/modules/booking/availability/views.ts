import type { AvailabilityView } from "./contract"
import { type AvailabilityPlan, clockOfMinutes, Weekdays } from "./domain"

/** A plan as the API shows it: every weekday listed (no range: closed), times as "HH:MM". */
export const toAvailabilityView = (plan: AvailabilityPlan): AvailabilityView => ({
  timeZone: plan.timeZone,
  isDefault: plan.isDefault,
  weekly: Weekdays.map((weekday) => ({
    weekday,
    ranges: (plan.weekly.find((d) => d.weekday === weekday)?.ranges ?? []).map((r) => ({
      start: clockOfMinutes(r.start),
      end: clockOfMinutes(r.end)
    }))
  })),
  exceptions: plan.exceptions.map((e) => ({ id: e.id, kind: e.kind, startTime: e.startTime, endTime: e.endTime, note: e.note })),
  noticeMinutes: plan.noticeMinutes,
  bufferMinutes: plan.bufferMinutes
})
