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
