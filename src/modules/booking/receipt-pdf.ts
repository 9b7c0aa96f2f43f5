import { Effect } from "effect"
import PDFDocument from "pdfkit"

// A receipt as a PDF, through pdfkit. Its standard fonts (Helvetica) read their metrics (.afm files)
// from pdfkit's own folder, so pdfkit stays external to the server bundle (bin/build.mjs).
// The document's words arrive translated and formatted (receipts.ts): this file only lays them out.

/** What a receipt shows, every text already in the receipt's language. */
export interface ReceiptDocument {
  readonly language: "fr" | "en"
  readonly title: string
  /** Who issues it: the brand's name (SITE_NAME). */
  readonly platform: string
  /** Labelled lines: the reference, the date of payment, the booking, the service, the people... */
  readonly lines: ReadonlyArray<{ readonly label: string; readonly value: string }>
  /** The amounts: paid, each refund, what was paid in the end. */
  readonly amounts: ReadonlyArray<{ readonly label: string; readonly value: string; readonly strong?: boolean }>
  readonly footer: string
}

/**
 * The standard fonts write WinAnsi text: Intl's narrow no-break space (French thousands and "€"
 * separators) becomes a no-break space, which WinAnsi has; anything else outside it is replaced.
 */
const winAnsi = (text: string) =>
  text
    .replace(/[\u202f\u2009]/g, "\u00a0")
    .replace(/[\u2010-\u2012]/g, "-")
    // Latin-1 and the few WinAnsi characters of 0x80-0x9F (€, quotes, dashes, ellipsis, œ, Œ, ...).
    .replace(
      /[^\u0000-\u00ff\u20ac\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u017d\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u017e\u0178]/g,
      "?"
    )

/** The receipt's PDF bytes. */
export const receiptPdf = (receipt: ReceiptDocument): Effect.Effect<Uint8Array> =>
  Effect.async<Uint8Array>((resume) => {
    const doc = new PDFDocument({
      size: "A4",
      margin: 56,
      lang: receipt.language,
      info: {
        Title: winAnsi(`${receipt.title} - ${receipt.platform}`),
        Author: winAnsi(receipt.platform),
        Creator: winAnsi(receipt.platform)
      }
    })
    const chunks: Array<Buffer> = []
    doc.on("data", (chunk: Buffer) => chunks.push(chunk))
    doc.on("end", () => resume(Effect.succeed(new Uint8Array(Buffer.concat(chunks)))))
    doc.on("error", (error: unknown) => resume(Effect.die(error)))

    const width = doc.page.width - 2 * 56
    doc.font("Helvetica-Bold").fontSize(20).text(winAnsi(receipt.platform))
    doc.moveDown(0.2).font("Helvetica").fontSize(14).fillColor("#333333").text(winAnsi(receipt.title))
    doc.moveDown(1)
    const row = (label: string, value: string, bold = false) => {
      const y = doc.y
      doc
        .font("Helvetica")
        .fontSize(11)
        .fillColor("#555555")
        .text(winAnsi(label), 56, y, { width: width * 0.4 })
      const labelBottom = doc.y
      doc
        .font(bold ? "Helvetica-Bold" : "Helvetica")
        .fillColor("#000000")
        .text(winAnsi(value), 56 + width * 0.42, y, { width: width * 0.58 })
      doc.y = Math.max(doc.y, labelBottom) + 4
      doc.x = 56
    }
    for (const line of receipt.lines) row(line.label, line.value)
    doc.moveDown(0.5)
    doc
      .moveTo(56, doc.y)
      .lineTo(56 + width, doc.y)
      .strokeColor("#cccccc")
      .stroke()
    doc.moveDown(0.5)
    for (const amount of receipt.amounts) row(amount.label, amount.value, amount.strong === true)
    doc.moveDown(2)
    doc.font("Helvetica").fontSize(9).fillColor("#555555").text(winAnsi(receipt.footer), 56, doc.y, { width })
    doc.end()
  })
