/** A minimal RFC 4180 reader (quoted fields, doubled quotes, CRLF rows). */
export const parseCsv = (text: string) => {
  const rows: Array<Array<string>> = [[]]
  let field = ""
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++
      else if (c === '"') quoted = false
      else field += c
    } else if (c === '"') quoted = true
    else if (c === ",") rows.at(-1)!.push(field), (field = "")
    else if (c === "\r" && text[i + 1] === "\n") rows.at(-1)!.push(field), (field = ""), rows.push([]), i++
    else field += c
  }
  rows.pop()
  return rows
}
