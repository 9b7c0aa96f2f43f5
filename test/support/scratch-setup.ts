import type { TestProject } from "vitest/node"
import { makeScratchRoot } from "./scratch-root"

/** The unit project's global setup: only the run's scratch directory (see scratch-root.ts). */
export default function setup(project: TestProject) {
  const scratch = makeScratchRoot()
  project.provide("scratchRoot", scratch.root)
  return scratch.remove
}
