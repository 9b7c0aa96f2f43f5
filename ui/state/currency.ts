// The currency the person chose for prices (the footer's picker), kept on this device: without one,
// prices read in their browser's region's currency, else their language's (catalogue/rates/rules.ts).
import { atom } from "jotai"
import { isCurrency } from "../../src/platform/money"
import { store } from "./session"

const KEY = "currency"

const readChoice = (): string | null => {
  try {
    const value = localStorage.getItem(KEY)
    return value !== null && isCurrency(value) ? value : null
  } catch {
    return null
  }
}

/** The chosen currency's code, or null for "my region's". */
export const currencyChoiceAtom = atom<string | null>(readChoice())

/** Chooses the currency of prices (null: back to the region's), remembered on this device. */
export const chooseCurrency = (currency: string | null) => {
  try {
    if (currency === null) localStorage.removeItem(KEY)
    else localStorage.setItem(KEY, currency)
  } catch {
    // Storage refused (private mode): the choice holds for this visit.
  }
  store.set(currencyChoiceAtom, currency)
}
