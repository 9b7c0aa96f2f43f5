/**
 * Control characters in user text. C0 (U+0000–U+001F), DEL and C1 (U+007F–U+009F) are never
 * meaningful in what people type: NUL cannot be stored by PostgreSQL, ANSI escapes (ESC [ ...) and
 * carriage returns rewrite what an operator's terminal or a log viewer shows, and the rest is
 * invisible. A one-line text (a title, a name, an email) admits none of them; a long text (a
 * description, a bio, a message) keeps its line breaks and tabs, with CR LF and lone CR written as LF.
 */
export type TextKind = "line" | "long"

// eslint-disable-next-line no-control-regex
const anyControl = /[\u0000-\u001f\u007f-\u009f]/
// eslint-disable-next-line no-control-regex
const controlButLineBreaksAndTabs = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/

/** Whether `text` holds a control character that a text of this kind does not admit. */
export const hasForbiddenControl = (text: string, kind: TextKind) => (kind === "line" ? anyControl : controlButLineBreaksAndTabs).test(text)

/** Line breaks written one way (LF), so that a lone CR never reaches a terminal. */
export const normalizeLineBreaks = (text: string) => text.replace(/\r\n?/g, "\n")

// A UTF-16 surrogate without its pair is no character: a JSON `\ud800` escape decodes to one, and
// PostgreSQL refuses it in JSON (the audit's details, an event's payload), so it is refused on input.
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** Whether a string, or any key or string inside a decoded JSON value, holds a lone surrogate. */
export const hasLoneSurrogate = (value: unknown): boolean => {
  if (typeof value === "string") return loneSurrogate.test(value)
  if (Array.isArray(value)) return value.some(hasLoneSurrogate)
  if (value !== null && typeof value === "object")
    return Object.entries(value).some(([key, inner]) => loneSurrogate.test(key) || hasLoneSurrogate(inner))
  return false
}

/** A JSON text that may hold an escaped surrogate (`\ud800`…`\udfff`): only those need the walk above. */
export const mayEscapeSurrogate = (json: string) => /\\u[dD][89a-fA-F]/.test(json)
