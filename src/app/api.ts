import { HttpApi, OpenApi } from "@effect/platform"
import {
  BadGateway,
  BadRequest,
  Conflict,
  Forbidden,
  NotFound,
  PayloadTooLarge,
  ServiceUnavailable,
  TooManyRequests,
  Unauthorized,
  UnsupportedMediaType,
  ValidationFailed
} from "../platform/errors"
import { asFailure, describeDecodeErrorsAsSent } from "../platform/http/error-responses"
import { HealthApi } from "../platform/http/health"
import { AuthApi } from "../modules/identity/contract"
import { UploadsApi, UsersApi } from "../modules/identity/profile/contract"
import { ContactApi, NotificationPreferencesApi, NotificationUnsubscribeApi } from "../modules/notifications/contract"
import { PaymentsWebhookApi, StripeConnectApi } from "../modules/payments/contract"
import { CategoriesApi, ServicesApi } from "../modules/catalogue/contract"
import { PlacesApi } from "../modules/catalogue/places/contract"
import { ExchangeRatesApi } from "../modules/catalogue/rates/contract"
import { AdminApplicationsApi, ProviderApplicationsApi } from "../modules/onboarding/contract"
import { AvailabilityApi, MyAvailabilityApi } from "../modules/booking/availability/contract"
import {
  BookingsApi,
  CalendarFeedApi,
  CancellationPolicyApi,
  CheckoutApi,
  EarningsApi,
  ReceiptsApi,
  ReviewsApi
} from "../modules/booking/contract"
import { BlocksApi, ConversationsApi, ModerationApi, ReportsApi } from "../modules/messaging/contract"
import { AdministrationApi } from "../modules/administration/contract"
import { AccountApi } from "../modules/privacy/contract"

/**
 * The one HTTP contract of the product, shared by the server, the OpenAPI document (/api/docs)
 * and the UI's types. Every endpoint may answer the standard errors, rendered as the error envelope
 * (which the document describes: platform/http/error-responses.ts).
 */
export class MarketplaceApi extends HttpApi.make("marketplace")
  .add(HealthApi)
  .add(AuthApi)
  .add(UsersApi)
  .add(ContactApi)
  .add(NotificationPreferencesApi)
  .add(NotificationUnsubscribeApi)
  .add(StripeConnectApi)
  .add(PaymentsWebhookApi)
  .add(CategoriesApi)
  .add(ServicesApi)
  .add(PlacesApi)
  .add(ExchangeRatesApi)
  .add(UploadsApi)
  .add(ProviderApplicationsApi)
  .add(AdminApplicationsApi)
  .add(BookingsApi)
  .add(CheckoutApi)
  .add(ReviewsApi)
  .add(CancellationPolicyApi)
  .add(AvailabilityApi)
  .add(MyAvailabilityApi)
  .add(CalendarFeedApi)
  .add(ReceiptsApi)
  .add(EarningsApi)
  .add(ConversationsApi)
  .add(BlocksApi)
  .add(ReportsApi)
  .add(ModerationApi)
  .add(AdministrationApi)
  .add(AccountApi)
  .addError(asFailure(BadRequest), { status: 400 })
  .addError(asFailure(Unauthorized), { status: 401 })
  .addError(asFailure(Forbidden), { status: 403 })
  .addError(asFailure(NotFound), { status: 404 })
  .addError(asFailure(Conflict), { status: 409 })
  .addError(asFailure(PayloadTooLarge), { status: 413 })
  .addError(asFailure(UnsupportedMediaType), { status: 415 })
  .addError(asFailure(ValidationFailed), { status: 422 })
  .addError(asFailure(TooManyRequests), { status: 429 })
  .addError(asFailure(BadGateway), { status: 502 })
  .addError(asFailure(ServiceUnavailable), { status: 503 })
  .prefix("/api")
  .annotate(OpenApi.Title, "Marketplace API")
  .annotate(OpenApi.Transform, describeDecodeErrorsAsSent) {}
