import { Option } from "effect"

// Upload limits, apart from the reader (uploads.ts, which loads sharp and multipasta): the
// contracts declare them on their multipart endpoints.

/** 5 MB per uploaded file. */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024

const MAX_FIELD_BYTES = 64 * 1024

/**
 * Limits of a form with `fileFields` files, as `HttpApiSchema.MultipartStream` documents them (the
 * reader of uploads.ts applies the same ones): 5 MB per file (exactly 5 MB passes), 64 KB per text field, and
 * a whole body with room for every file and the text fields, which replaces the server's default 10 MB.
 */
export const multipartLimits = (fileFields: number) => ({
  maxParts: Option.some(fileFields + 16),
  maxFieldSize: MAX_FIELD_BYTES,
  maxFileSize: Option.some(MAX_UPLOAD_BYTES),
  maxTotalSize: Option.some(fileFields * MAX_UPLOAD_BYTES + 1024 * 1024)
})
