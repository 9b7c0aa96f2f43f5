import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { Authentication } from "../../platform/http/authentication"
import { Ok, Payload, PayloadText } from "../../platform/http/schemas"

// The privacy module's HTTP contract (issue 15): a user's data export and the deletion of their account.
// The export itself, `POST /api/account/export/{token}` (the mailed link's page downloads it, once), answers the JSON file,
// so it is routed beside this contract (src/app/server.ts), as the calendar feeds are.

const Empty = Schema.Struct({})
export const DeleteAccountPayload = Payload({ password: Schema.optional(PayloadText) })

export class AccountApi extends HttpApiGroup.make("account")
  .add(HttpApiEndpoint.post("requestExport", "/export").addSuccess(Ok(Empty), { status: 202 }))
  .add(HttpApiEndpoint.post("deleteAccount", "/delete").setPayload(DeleteAccountPayload).addSuccess(Ok(Empty)))
  .middleware(Authentication)
  .prefix("/account") {}
