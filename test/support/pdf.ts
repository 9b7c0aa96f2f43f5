import { inflateSync } from "node:zlib"

/**
 * The text a PDF made by pdfkit shows, line by line (enough to check a receipt's figures): each
 * FlateDecode stream is inflated, and the hex strings of its text operators (`[<..> k <..>] TJ`, `<..> Tj`)
 * are decoded from WinAnsi (the standard fonts' encoding), one line per operator.
 */
export const pdfText = (bytes: Uint8Array): ReadonlyArray<string> => {
  const raw = Buffer.from(bytes)
  const decoder = new TextDecoder("windows-1252")
  const lines: Array<string> = []
  let at = 0
  for (;;) {
    const start = raw.indexOf("stream\n", at)
    if (start < 0) break
    const end = raw.indexOf("\nendstream", start)
    if (end < 0) break
    const body = raw.subarray(start + "stream\n".length, end)
    at = end + 1
    let content: string
    try {
      content = inflateSync(body).toString("latin1")
    } catch {
      continue
    }
    for (const match of content.matchAll(/\[((?:<[0-9a-fA-F]*>|[^\]])*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g)) {
      const hexes = match[1] !== undefined ? [...match[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((m) => m[1]!) : [match[2]!]
      lines.push(hexes.map((hex) => decoder.decode(Buffer.from(hex, "hex"))).join(""))
    }
  }
  return lines
}

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
