export {
  type AnalyticsPeriod,
  AnalyticsPeriods,
  bookingFigures,
  COMMISSION_RATE,
  csv,
  csvField,
  DEFAULT_CURRENCY,
  type FinancePeriod,
  FinancePeriods,
  financialFigures,
  type OperationTotal,
  parseAnalyticsPeriod,
  parseFinancePeriod,
  paymentStatusOf,
  validationRate,
  windowOf
} from "./domain"
export { AdminReadModel, type BookingRow, type PaymentRow, type ServiceRow, type UserRow } from "./ports"
export { Administration, AdministrationLive, type Analytics, type Dashboard, type FinancialStats } from "./service"
export { AdministrationApi } from "./contract"
