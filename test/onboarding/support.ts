import sharp from "sharp"
import type { httpClient, Reply } from "../support/http"
import { sqlOn, type TestServer } from "../support/server"
import { fileOf, pdf, png, sendForm } from "../profiles/support"

export const DOCUMENT_SLOTS = ["identityDocument", "addressDocument", "bankDocument", "profilePicture"] as const
type Slot = (typeof DOCUMENT_SLOTS)[number]

export const jpeg = (width = 12, height = 12) =>
  sharp({ create: { width, height, channels: 3, background: "#aa3355" } })
    .jpeg()
    .toBuffer()
    .then((b) => new Uint8Array(b))

/** The become-provider form: valid by default; `fields` and `files` replace (null removes) single entries. */
export const applicationForm = async (
  options: { fields?: Record<string, string | null>; files?: Partial<Record<Slot | string, File | null>> } = {}
) => {
  const form = new FormData()
  const fields: Record<string, string | null> = {
    skills: "Plomberie, chauffage, dépannage",
    experience: "Dix ans d'artisanat à Montréal.",
    motivation: "Trouver de nouveaux clients près de chez moi.",
    dateOfBirth: "1990-05-05",
    ...options.fields
  }
  for (const [key, value] of Object.entries(fields)) if (value !== null) form.append(key, value)
  const files: Record<string, File | null> = {
    identityDocument: fileOf(pdf(), "carte d'identité.pdf", "application/pdf"),
    addressDocument: fileOf(await png(), "facture.png", "image/png"),
    bankDocument: fileOf(pdf(), "rib.pdf", "application/pdf"),
    profilePicture: fileOf(await jpeg(), "moi.jpg", "image/jpeg"),
    ...options.files
  }
  for (const [key, file] of Object.entries(files)) if (file !== null) form.append(key, file)
  return form
}

export const submit = (server: TestServer, token: string, form: FormData, language?: string) =>
  sendForm(server, "POST", "/api/provider-applications/submit", form, { token, ...(language ? { language } : {}) })

export const resubmit = (server: TestServer, token: string, form: FormData, language?: string) =>
  sendForm(server, "PUT", "/api/provider-applications/my-application", form, { token, ...(language ? { language } : {}) })

/** Rows an applicant has: applications and their documents. */
export const rowsOf = async (server: TestServer, userId: string) => {
  const [counts] = await sqlOn(server)<{ applications: number; documents: number }>(
    `SELECT (SELECT count(*)::int FROM provider_applications WHERE user_id = $1) AS applications,
            (SELECT count(*)::int FROM application_documents d JOIN provider_applications a ON a.id = d.application_id WHERE a.user_id = $1) AS documents`,
    [userId]
  )
  return counts!
}

export type Api = ReturnType<typeof httpClient>
export type { Reply }
