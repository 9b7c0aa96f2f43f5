export { chargeRouting, type ConnectStatus, type PaymentAccount, PaymentGatewayUnavailable } from "./domain"
export {
  type ChargeEvent,
  ChargeEventSink,
  ChargeGateway,
  PaymentGatewayError
} from "./ports"
export { PaymentAccounts } from "./service"
export { EXTENDED_AUTHORIZATION_DETAIL, keptHoldEnd } from "./holds"
export { countsInFigures, type RefundStatus, RefundStatuses, refundStatusAfter } from "./rules"
export { PaymentWebhooksLive } from "./webhooks"
export { ConnectStatusView, PaymentsWebhookApi, StripeConnectApi } from "./contract"
export { AdminPaymentAccounts } from "./admin"
