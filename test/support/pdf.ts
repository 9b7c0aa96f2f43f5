import { execFileSync } from "node:child_process"

/**
 * The text a PDF shows, line by line, as poppler's `pdftotext` reads it (the real reader: the
 * receipt embeds its font, so its text is glyph ids mapped back through the font's ToUnicode table;
 * a PDF whose text could not be read back prints garbage here). Lines trimmed, blank ones dropped.
 */
export const pdfText = (bytes: Uint8Array): ReadonlyArray<string> =>
  execFileSync("pdftotext", ["-enc", "UTF-8", "-", "-"], { input: Buffer.from(bytes), encoding: "utf8" })
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")

/**
 * A text entry of a pdfkit PDF's document information (its Title, Author, Creator): a literal string
 * in its own object, in UTF-16 (with its byte order mark) when it is not plain ASCII.
 */
export const pdfInfo = (bytes: Uint8Array, key: "Title" | "Author" | "Creator"): string | undefined => {
  const raw = Buffer.from(bytes).toString("latin1")
  const reference = new RegExp(`/${key} (\\d+) 0 R`).exec(raw)?.[1]
  const literal = reference && new RegExp(`\\n${reference} 0 obj\\n\\(([\\s\\S]*?)\\)\\nendobj`).exec(raw)?.[1]
  if (literal === undefined) return undefined
  const text = literal.replace(/\\([\\()])/g, "$1")
  return text.startsWith("\xfe\xff") ? Buffer.from(text.slice(2), "latin1").swap16().toString("utf16le") : text
}
