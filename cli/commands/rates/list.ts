import { Effect } from "effect"
import { ExchangeRates } from "../../../src/modules/catalogue"
import { JsonCommand } from "../../base"
import { ratesJson, renderRates } from "./shared"

export default class RatesList extends JsonCommand {
  static override description = "List the exchange rates in force (units of each currency for 1 EUR), with their source"
  static override examples = ["<%= config.bin %> rates:list", "<%= config.bin %> rates:list --json"]

  async run() {
    await this.parse(RatesList)
    const rates = await this.runEffect(Effect.flatMap(ExchangeRates, (service) => service.list))
    this.print(ratesJson(rates), () => renderRates(rates))
  }
}
