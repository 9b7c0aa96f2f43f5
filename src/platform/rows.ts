import { SqlSchema } from "@effect/sql"
import { Effect, Option, ParseResult, Schema } from "effect"

/**
 * Rows decoded by Schema at the repository boundary: every statement's rows go through the schema
 * of their shape (keys already camelCase, int8 already a number: see database.ts), so a column
 * whose type or name drifts from what the code reads fails here, naming the query, instead of
 * travelling on as a wrong value. Such a row is a defect (the schema and the SQL disagree), never
 * a user's error. The statements take no Request schema: their parameters are already typed
 * values bound by the sql tag.
 */
const rowDefect =
  (query: string) =>
  <A, E, R>(rows: Effect.Effect<A, E | ParseResult.ParseError, R>): Effect.Effect<A, Exclude<E, ParseResult.ParseError>, R> =>
    Effect.catchIf(
      rows,
      (error): error is ParseResult.ParseError => ParseResult.isParseError(error),
      (error) => Effect.dieMessage(`rows of "${query}" do not match their schema: ${ParseResult.TreeFormatter.formatErrorSync(error)}`)
    ) as Effect.Effect<A, Exclude<E, ParseResult.ParseError>, R>

/** Every row of `statement`, decoded. */
export const findAll = <A, I, E, R>(
  query: string,
  Result: Schema.Schema<A, I>,
  statement: Effect.Effect<ReadonlyArray<unknown>, E, R>
): Effect.Effect<ReadonlyArray<A>, Exclude<E, ParseResult.ParseError>, R> =>
  SqlSchema.findAll({ Request: Schema.Void, Result, execute: () => statement })(undefined).pipe(rowDefect(query))

/** The first row of `statement`, decoded, if there is one. */
export const findOne = <A, I, E, R>(
  query: string,
  Result: Schema.Schema<A, I>,
  statement: Effect.Effect<ReadonlyArray<unknown>, E, R>
): Effect.Effect<Option.Option<A>, Exclude<E, ParseResult.ParseError>, R> =>
  SqlSchema.findOne({ Request: Schema.Void, Result, execute: () => statement })(undefined).pipe(rowDefect(query))

/** The one row `statement` always returns (an aggregate), decoded; none is a defect. */
export const single = <A, I, E, R>(
  query: string,
  Result: Schema.Schema<A, I>,
  statement: Effect.Effect<ReadonlyArray<unknown>, E, R>
): Effect.Effect<A, Exclude<E, ParseResult.ParseError>, R> =>
  findOne(query, Result, statement).pipe(
    Effect.flatMap(
      Option.match({
        onNone: () => Effect.dieMessage(`"${query}" returned no row`),
        onSome: Effect.succeed
      })
    )
  )
