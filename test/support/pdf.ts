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
