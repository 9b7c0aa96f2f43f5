import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { Ok, Payload, PayloadLongText, PayloadText } from "../../platform/http/schemas"
// The contract file, not the index: identity's index loads its handlers, which load the app's HttpApi (a cycle).
import { Authentication } from "../../platform/http/authentication"
import { EmailFrequencies } from "./rules"

// The module's HTTP contract: schemas, endpoints, groups. Pure (no server code): the UI imports its types.

const Text = Schema.optional(PayloadText)

export const ContactPayload = Payload({ name: Text, email: Text, subject: Text, message: Schema.optional(PayloadLongText) })

export class ContactApi extends HttpApiGroup.make("contact")
  .add(
    HttpApiEndpoint.post("sendMessage", "/send-message")
      .setPayload(ContactPayload)
      .addSuccess(Ok(Schema.Struct({})), { status: 201 })
  )
  .prefix("/contact") {}

export const PreferencesView = Schema.Struct({
  emailNotifications: Schema.Boolean,
  emailFrequency: Schema.Literal(...EmailFrequencies),
  quietHoursEnabled: Schema.Boolean,
  quietHoursStart: Schema.String,
  quietHoursEnd: Schema.String,
  timeZone: Schema.String
})

export const PreferencesData = Schema.Struct({ preferences: PreferencesView })
const PreferencesAnswer = Ok(PreferencesData)

/** The signed-in account's notification preferences (spec section 7). */
export class NotificationPreferencesApi extends HttpApiGroup.make("notificationPreferences")
  .add(HttpApiEndpoint.get("get", "/preferences").addSuccess(PreferencesAnswer))
  .add(
    HttpApiEndpoint.put("update", "/preferences")
      // Values are checked by the domain (422 per field); only a wrong JSON type is a 400.
      .setPayload(
        Payload({
          emailNotifications: Schema.optional(Schema.Boolean),
          emailFrequency: Text,
          quietHoursEnabled: Schema.optional(Schema.Boolean),
          quietHoursStart: Text,
          quietHoursEnd: Text,
          timeZone: Text
        })
      )
      .addSuccess(PreferencesAnswer)
  )
  .middleware(Authentication)
  .prefix("/notifications") {}

/** Public: answers the same whatever the address (the one-click link is a page: see http.ts). */
export class NotificationUnsubscribeApi extends HttpApiGroup.make("notificationUnsubscribe")
  .add(
    HttpApiEndpoint.post("unsubscribe", "/unsubscribe")
      .setPayload(Payload({ email: Text }))
      .addSuccess(Ok(Schema.Struct({})))
  )
  .prefix("/notifications") {}
