import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { Ok } from "./envelope"

export class HealthApi extends HttpApiGroup.make("health")
  .add(
    HttpApiEndpoint.get("health", "/health").addSuccess(
      Ok(Schema.Struct({ status: Schema.Literal("ok"), database: Schema.Literal("ok"), uptimeSeconds: Schema.Number }))
    )
  ) {}
