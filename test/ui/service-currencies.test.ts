import { describe, expect, it } from "vitest"
import { parsePrice } from "../../src/modules/catalogue/domain"
import { Currencies } from "../../src/platform/money"
import { checkServiceForm, type ServiceFormValues } from "../../ui/catalogue/rules"

// The service form offered 5 currencies while the server takes 8, and judged every price by two
// decimals (issue 23, item 18): the form and the server now read the same list and the same rule.

const form = (price: string): ServiceFormValues => ({
  title: "Cours de piano",
  description: "À domicile.",
  price,
  duration: "60",
  location: "Montréal",
  category: "1",
  newCategoryName: "",
  lat: "",
  lng: ""
})

describe("the service form's price in each currency the server accepts", () => {
  it("is accepted or refused as the server would", () => {
    for (const currency of Currencies)
      for (const price of ["40", "40.5", "40.55", "40.555", "0", "-3"]) {
        const server = parsePrice(price, currency)
        const problem = checkServiceForm({ ...form(price), currency }, "create").price
        expect([currency, price, problem === undefined], "the form agrees with the server").toEqual([
          currency,
          price,
          server._tag === "Right"
        ])
      }
  })

  it("says a price in yen or CFA francs is a whole number", () => {
    expect(checkServiceForm({ ...form("1500.5"), currency: "JPY" }, "create").price).toBe("priceWhole")
    expect(checkServiceForm({ ...form("15.55"), currency: "EUR" }, "create").price).toBeUndefined()
    expect(checkServiceForm({ ...form("15.555"), currency: "EUR" }, "create").price).toBe("priceInvalid")
  })
})
