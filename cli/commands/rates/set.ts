import { Args } from "@oclif/core"
import { Effect } from "effect"
import { ExchangeRates } from "../../../src/modules/catalogue"
import { JsonCommand } from "../../base"
import { rateArguments, ratesJson, renderRates } from "./shared"

export default class RatesSet extends JsonCommand {
  static override description =
    "Set exchange rates, as units of each currency for 1 EUR (the reference): searches compare prices in euros with them. Audited like the back-office's decisions"
  static override examples = ["<%= config.bin %> rates:set CAD=1.4567 USD=1.08", "<%= config.bin %> rates:set JPY=161.2 --json"]
  static override strict = false
  static override args = {
    rates: Args.string({ required: true, description: "CURRENCY=RATE, one or more (EUR, the reference, is always 1)" })
  }

  async run() {
    const { argv } = await this.parse(RatesSet)
    const rates = await this.runEffect(
      Effect.flatMap(ExchangeRates, (service) => service.setByOperator(rateArguments(argv as Array<string>)))
    )
    this.print(ratesJson(rates), () => renderRates(rates))
  }
}
