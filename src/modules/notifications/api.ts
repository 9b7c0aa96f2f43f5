import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { Ok, PayloadText } from "../../platform/http/envelope"

const Text = Schema.optional(PayloadText)

export class ContactApi extends HttpApiGroup.make("contact")
  .add(
    HttpApiEndpoint.post("sendMessage", "/send-message")
      .setPayload(Schema.Struct({ name: Text, email: Text, subject: Text, message: Text }))
      .addSuccess(Ok(Schema.Struct({})), { status: 201 })
  )
  .prefix("/contact") {}
