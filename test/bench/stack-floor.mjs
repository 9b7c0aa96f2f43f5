#!/usr/bin/env node
// The stack's floor, for `make bench`: the least an HTTP server built on the packages the design card
// names (@effect/platform-node's router and @effect/sql-pg) can cost for one answer with the same
// database work as the app's endpoint, with no application code at all: one route, one statement,
// a JSON answer. The bench scripts start it beside the app and the bare node:http handler, so a
// ratio target can be compared with what the stack itself reaches on this machine in the same run.
//   FLOOR_PORT, FLOOR_DATABASE_URL (with its search_path), FLOOR_SQL (the statement, parameters $1…),
//   FLOOR_PARAMS (JSON array).
import { HttpRouter, HttpServer, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import * as http from "node:http"

const statement = process.env.FLOOR_SQL
const params = JSON.parse(process.env.FLOOR_PARAMS ?? "[]")
const route = HttpRouter.empty.pipe(
  HttpRouter.get(
    "/",
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement, params)).pipe(
      Effect.flatMap((rows) => HttpServerResponse.json({ success: true, data: rows })),
      Effect.orDie
    )
  )
)
const Server = HttpServer.serve(route).pipe(
  Layer.provide(
    NodeHttpServer.layer(() => http.createServer({ keepAliveTimeout: 5_000 }), { port: Number(process.env.FLOOR_PORT), host: "127.0.0.1" })
  ),
  Layer.provide(PgClient.layer({ url: Redacted.make(process.env.FLOOR_DATABASE_URL), maxConnections: 10 })),
  Layer.provide(Layer.setTracerEnabled(false))
)
NodeRuntime.runMain(Layer.launch(Server))
