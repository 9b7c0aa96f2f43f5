import { Effect } from "effect"
import { createRequire } from "node:module"
import PDFDocument from "pdfkit"

// A receipt as a PDF, through pdfkit, on one A4 page. The text is set in DejaVu Sans, embedded (its
// subset of the glyphs used), so every name prints as written ("Nguyễn", "Łukasz", "Zoë"): the
// standard PDF fonts know WinAnsi only. pdfkit stays external to the server bundle (bin/build.mjs);
// the fonts are read from the dejavu-fonts-ttf package. The words arrive translated and formatted
// (receipts.ts): this file only lays them out.

const fonts = (() => {
  const require = createRequire(import.meta.url)
  return {
    regular: require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf"),
    bold: require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf")
  }
})()

/** What a receipt shows, every text already in the receipt's language. */
export interface ReceiptDocument {
  readonly language: "fr" | "en"
  readonly title: string
  /** Who issues it: the brand's name (SITE_NAME). */
  readonly platform: string
  /** "Reçu n° R-7F3K-9Q2M-X4TD". */
  readonly number: string
  /** The issuer's details under its name (its name and support address). */
  readonly issuer: string
  /** Labelled lines: the date of payment, the people, the service, its date and place, the card... */
  readonly lines: ReadonlyArray<{ readonly label: string; readonly value: string }>
  /** The amounts: the rate and duration, paid, each refund, what was paid in the end. */
  readonly amounts: ReadonlyArray<{ readonly label: string; readonly value: string; readonly strong?: boolean }>
  /** Small print: the taxes' mention, the issuer and the currency. */
  readonly notes: ReadonlyArray<string>
}

const MARGIN = 56
const INK = "#111111"
const MUTED = "#555555"
const RULE = "#cccccc"

/** The receipt's PDF bytes. */
export const receiptPdf = (receipt: ReceiptDocument): Effect.Effect<Uint8Array> =>
  Effect.async<Uint8Array>((resume) => {
    const doc = new PDFDocument({
      size: "A4",
      margin: MARGIN,
      lang: receipt.language,
      info: { Title: `${receipt.title} - ${receipt.platform}`, Author: receipt.platform, Creator: receipt.platform }
    })
    const chunks: Array<Buffer> = []
    doc.on("data", (chunk: Buffer) => chunks.push(chunk))
    doc.on("end", () => resume(Effect.succeed(new Uint8Array(Buffer.concat(chunks)))))
    doc.on("error", (error: unknown) => resume(Effect.die(error)))
    doc.registerFont("regular", fonts.regular)
    doc.registerFont("bold", fonts.bold)

    const width = doc.page.width - 2 * MARGIN
    const rule = () => {
      doc.moveDown(0.5)
      doc
        .moveTo(MARGIN, doc.y)
        .lineTo(MARGIN + width, doc.y)
        .strokeColor(RULE)
        .stroke()
      doc.moveDown(0.5)
    }
    const row = (label: string, value: string, bold = false) => {
      const y = doc.y
      doc
        .font("regular")
        .fontSize(10.5)
        .fillColor(MUTED)
        .text(label, MARGIN, y, { width: width * 0.38 })
      const labelBottom = doc.y
      doc
        .font(bold ? "bold" : "regular")
        .fillColor(INK)
        .text(value, MARGIN + width * 0.4, y, { width: width * 0.6 })
      doc.y = Math.max(doc.y, labelBottom) + 4
      doc.x = MARGIN
    }

    doc.font("bold").fontSize(20).fillColor(INK).text(receipt.platform)
    doc.font("regular").fontSize(9).fillColor(MUTED).text(receipt.issuer)
    doc.moveDown(0.8)
    doc.font("bold").fontSize(14).fillColor(INK).text(receipt.title)
    doc.font("regular").fontSize(11).fillColor(MUTED).text(receipt.number)
    rule()
    for (const line of receipt.lines) row(line.label, line.value)
    rule()
    for (const amount of receipt.amounts) row(amount.label, amount.value, amount.strong === true)
    doc.moveDown(1.5)
    for (const note of receipt.notes) {
      doc.font("regular").fontSize(8.5).fillColor(MUTED).text(note, MARGIN, doc.y, { width })
      doc.moveDown(0.3)
    }
    doc.end()
  })
