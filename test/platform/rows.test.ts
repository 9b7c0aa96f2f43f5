import { SqlClient } from "@effect/sql"
import { Cause, Effect, Exit, ManagedRuntime, Option, Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { parseInt8 } from "../../src/platform/database"
import { findAll, findOne, single } from "../../src/platform/rows"
import { freshTestDatabase } from "../support/database"

// Rows are decoded at the repository boundary: camelCase keys, int8 as an exact number, and a row
// that does not match its schema is a defect naming the query, on PGlite and on PostgreSQL.

const kinds: ReadonlyArray<"pglite" | "postgres"> = process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"]

describe("parseInt8", () => {
  it("reads an exact int8 as a number and leaves a larger one as text", () => {
    expect(parseInt8("42")).toBe(42)
    expect(parseInt8("-9007199254740991")).toBe(-9007199254740991)
    expect(parseInt8("9007199254740993")).toBe("9007199254740993")
  })
})

describe.each(kinds)("rows decoded by Schema (%s)", (kind) => {
  let runtime: ManagedRuntime.ManagedRuntime<SqlClient.SqlClient, unknown>
  beforeAll(() => {
    runtime = ManagedRuntime.make(freshTestDatabase(kind))
  }, 60_000)
  afterAll(() => runtime?.dispose())
  const run = <A, E>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, E>) => runtime.runPromiseExit(Effect.flatMap(SqlClient.SqlClient, f))
  const defectOf = <A, E>(exit: Exit.Exit<A, E>) =>
    Exit.isFailure(exit) ? String(Option.getOrUndefined(Cause.dieOption(exit.cause))) : "no defect"

  it("gives snake_case columns camelCase keys, counts as numbers, JSON values as stored", async () => {
    const Row = Schema.Struct({
      firstName: Schema.String,
      rowCount: Schema.Number,
      createdAt: Schema.DateFromSelf,
      payload: Schema.Unknown
    })
    const exit = await run((sql) =>
      single(
        "sample",
        Row,
        sql`SELECT 'Léa' AS first_name, count(*) AS row_count, now() AS created_at, json_build_object('line_one', 1) AS payload FROM (VALUES (1), (2)) v(x)`
      )
    )
    expect(Exit.isSuccess(exit) && exit.value).toMatchObject({ firstName: "Léa", rowCount: 2, payload: { line_one: 1 } })
    expect(Exit.isSuccess(exit) && exit.value.createdAt).toBeInstanceOf(Date)
  })

  it("fails loudly, naming the query, on a column of the wrong type", async () => {
    const exit = await run((sql) => findAll("users page", Schema.Struct({ total: Schema.Number }), sql`SELECT 'many' AS total`))
    expect(defectOf(exit)).toMatch(/rows of "users page" do not match their schema[\s\S]*total/)
  })

  it("fails loudly on a missing column and on an int8 past 2^53", async () => {
    const missing = await run((sql) => findOne("one user", Schema.Struct({ firstName: Schema.String }), sql`SELECT 'Léa' AS "FirstName"`))
    expect(defectOf(missing)).toMatch(/rows of "one user" do not match[\s\S]*firstName/)
    const huge = await run((sql) => single("sum", Schema.Struct({ n: Schema.Number }), sql`SELECT 9007199254740993::int8 AS n`))
    expect(defectOf(huge)).toMatch(/rows of "sum" do not match/)
  })

  it("makes an aggregate with no row a defect, and findOne none an Option", async () => {
    const none = await run((sql) => findOne("nothing", Schema.Struct({ n: Schema.Number }), sql`SELECT 1 AS n WHERE false`))
    expect(Exit.isSuccess(none) && Option.isNone(none.value)).toBe(true)
    const empty = await run((sql) => single("nothing", Schema.Struct({ n: Schema.Number }), sql`SELECT 1 AS n WHERE false`))
    expect(defectOf(empty)).toMatch(/"nothing" returned no row/)
  })
})
