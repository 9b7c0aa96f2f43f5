import * as fs from "node:fs"
import * as path from "node:path"
import { inject } from "vitest"

declare module "vitest" {
  export interface ProvidedContext {
    scratchRoot: string
  }
}

/** A fresh directory for one test's files (a data directory, an export), inside the run's scratch directory (scratch-root.ts). */
export const scratchDir = (prefix: string) => fs.mkdtempSync(path.join(inject("scratchRoot"), `${prefix}-`))
