import { useLingui } from "@lingui/react/macro"
import { useAtomValue } from "jotai"
import { useId, useMemo } from "react"
import { currencyForViewer } from "../api/contract"
import { Currencies, currencySymbolIn } from "../../src/platform/money"
import { chooseCurrency, currencyChoiceAtom } from "../state/currency"
import { useViewerPlace } from "./catalogue"

/**
 * The currency prices are shown in (the footer's picker): the browser's region's by default, named
 * with its symbol ("Selon votre région ($CA)"), or one the person picks, kept on this device.
 */
export const CurrencyPicker = () => {
  const { t, i18n } = useLingui()
  const id = useId()
  const choice = useAtomValue(currencyChoiceAtom)
  const regional = currencySymbolIn(i18n.locale, currencyForViewer(useViewerPlace()))
  const names = useMemo(() => new Intl.DisplayNames([i18n.locale], { type: "currency" }), [i18n.locale])
  return (
    <div className="currency-picker">
      <label htmlFor={id}>{t`Devise des prix`}</label>
      <select id={id} value={choice ?? ""} onChange={(event) => chooseCurrency(event.target.value || null)}>
        <option value="">{t`Selon votre région (${regional})`}</option>
        {Currencies.map((currency) => (
          <option key={currency} value={currency}>
            {`${names.of(currency) ?? currency} (${currencySymbolIn(i18n.locale, currency)})`}
          </option>
        ))}
      </select>
    </div>
  )
}
