// The day buttons' accessible names of react-day-picker, in the reader's language. Its default is
// English ("Today, Sunday, November 1st, 2026, selected") and writes the day as an ordinal, which no
// longer contains the button's visible text ("1"): axe's label-content-name-mismatch.
import { useLingui } from "@lingui/react/macro"
import { DateLib, type DateLibOptions, type Labels, type Modifiers } from "react-day-picker"

export const useDayPickerLabels = (): Partial<Labels> => {
  const { t, i18n } = useLingui()
  const pattern = i18n.locale.startsWith("en") ? "EEEE, MMMM d, yyyy" : "EEEE d MMMM yyyy"
  return {
    labelDayButton: (date: Date, modifiers: Modifiers, options?: DateLibOptions, dateLib?: DateLib) => {
      // The picker's own date library: it formats in the picker's time zone and locale.
      const day = (dateLib ?? new DateLib(options)).format(date, pattern)
      const named = modifiers.today ? t`Aujourd'hui, ${day}` : day
      return modifiers.selected ? t`${named}, sélectionné` : named
    }
  }
}
