import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

/** The project root, found from this file whether it runs from src/ (tests) or from the dist/ bundle. */
export const appRoot: string = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url))
  while (!fs.existsSync(path.join(dir, "package.json")) || !fs.existsSync(path.join(dir, "migrations"))) {
    const parent = path.dirname(dir)
    if (parent === dir) return process.cwd()
    dir = parent
  }
  return dir
})()
