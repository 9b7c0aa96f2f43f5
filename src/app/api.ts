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
import { HealthApi } from "../platform/http/health"
import { AuthApi } from "../modules/identity/contract"
import { UploadsApi, UsersApi } from "../modules/identity/profile/contract"
import { ContactApi, NotificationPreferencesApi, NotificationUnsubscribeApi } from "../modules/notifications/contract"
import { PaymentsWebhookApi, StripeConnectApi } from "../modules/payments/contract"
import { CategoriesApi, ServicesApi } from "../modules/catalogue/contract"
import { AdminApplicationsApi, ProviderApplicationsApi } from "../modules/onboarding/contract"
import { BookingsApi, CheckoutApi, ReviewsApi } from "../modules/booking/contract"
import { AvailabilityApi, MyAvailabilityApi } from "../modules/booking/availability/contract"
import { ConversationsApi } from "../modules/messaging/contract"
import { AdministrationApi } from "../modules/administration/contract"

/**
 * The one HTTP contract of the product, shared by the server, the OpenAPI document (/api/docs)
 * and the UI's types. Every endpoint may answer the standard errors, rendered as the error envelope.
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
  .add(UploadsApi)
  .add(ProviderApplicationsApi)
  .add(AdminApplicationsApi)
  .add(BookingsApi)
  .add(CheckoutApi)
  .add(ReviewsApi)
  .add(AvailabilityApi)
  .add(MyAvailabilityApi)
  .add(ConversationsApi)
  .add(AdministrationApi)
  .addError(BadRequest, { status: 400 })
  .addError(Unauthorized, { status: 401 })
  .addError(Forbidden, { status: 403 })
  .addError(NotFound, { status: 404 })
  .addError(Conflict, { status: 409 })
  .addError(PayloadTooLarge, { status: 413 })
  .addError(UnsupportedMediaType, { status: 415 })
  .addError(ValidationFailed, { status: 422 })
  .addError(TooManyRequests, { status: 429 })
  .addError(BadGateway, { status: 502 })
  .addError(ServiceUnavailable, { status: 503 })
  .prefix("/api")
  .annotate(OpenApi.Title, "Marketplace API") {}
