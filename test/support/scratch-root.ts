import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

/**
 * The run's scratch directory, made by each project's global setup and removed with everything in it
 * when the run ends: a run used to leave a data directory per test server and domain in /tmp (250 a run).
 * Test files make theirs inside it with scratchDir (scratch.ts).
 */
export const makeScratchRoot = () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "mkt-test-run-"))
  return { root, remove: () => fs.rmSync(root, { recursive: true, force: true }) }
}
