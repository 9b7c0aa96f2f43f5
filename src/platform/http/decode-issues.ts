import { ParseResult } from "effect"
import { isMessageKey, type Language, type MessageKey, translate } from "../messages"
import { MISSING_RESOURCE, type MissingResource } from "./schemas"

interface DecodeIssue {
  readonly _tag: string
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

/**
 * The issue as a message of ours: the schema's own text names internal types and echoes the input.
 * Our filters (PayloadText...) give a message key as their message: that one is kept.
 */
const keyOf = (issue: DecodeIssue): MessageKey =>
  issue._tag === "Refinement" && isMessageKey(issue.message)
    ? issue.message
    : issue._tag === "Unexpected"
      ? "request.unknownField"
      : issue._tag === "Missing"
        ? "validation.required"
        : "request.invalidField"

/**
 * The `details` of a 400 for a request that did not match its schema: each field path once, with a
 * generic message in the request's language; never the value sent nor Effect's schema text.
 */
export const decodeIssueDetails = (
  error: unknown,
  language: Language
): ReadonlyArray<{ readonly field: string; readonly message: string }> => {
  const issues: ReadonlyArray<DecodeIssue> = ParseResult.isParseError(error)
    ? ParseResult.ArrayFormatter.formatErrorSync(error)
    : ((error as { issues?: ReadonlyArray<DecodeIssue> }).issues ?? [])
  const byField = new Map<string, MessageKey>()
  for (const issue of issues) {
    const field = issue.path.map(String).join(".")
    // A union reports one issue per member at the same path: the first says enough.
    if (!byField.has(field)) byField.set(field, keyOf(issue))
  }
  // A nullable object reports its own "not null" beside the problem inside it: the deeper path says where.
  const fields = [...byField.keys()]
  const deepest = fields.filter((field) => !fields.some((other) => other !== field && (field === "" || other.startsWith(`${field}.`))))
  return deepest.map((field) => ({ field, message: translate(language, byField.get(field)!) }))
}

/**
 * The 404 a refused path id stands for (schemas.ts's `PathId`): a malformed id answers the resource's
 * own "not found", as an unknown one does; undefined for any other decode failure.
 */
export const missingResourceOf = (error: unknown): MissingResource | undefined => {
  const issues = (error as { issues?: ReadonlyArray<DecodeIssue> }).issues ?? []
  for (const issue of issues) {
    if (!issue.message.startsWith(MISSING_RESOURCE)) continue
    const [code, key] = issue.message.slice(MISSING_RESOURCE.length).split(":")
    if (code !== undefined && key !== undefined && isMessageKey(key)) return { code, key }
  }
  return undefined
}
