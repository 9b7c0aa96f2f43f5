import { defineConfig } from "vitest/config"
import { filesByProject } from "./test/support/projects"
import LongestFirst from "./test/support/sequencer"

// Three projects (docs/testing.md): `unit` (pure files, threads, first and alone under a minute),
// `integration` (a database or a server) and `browser` (Chromium). A file's project follows from what
// it imports (test/support/projects.ts). `make test` runs them in that order and stops at the first
// that fails; `make test-unit` runs the first alone.
const files = filesByProject()

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Access logs go straight to pino at LOG_LEVEL; tests only want warnings.
    env: { LOG_LEVEL: "warn" },
    // Two workers for two cores, whichever the pool (a project may not set its own counts).
    // A worker runs its files one after the other in one process (isolate: false), so the application is
    // imported once per worker, not once per file; every file still builds and stops its own world. Set
    // here: a project's own `isolate` is overridden by the pool's options.
    poolOptions: { threads: { maxThreads: 2, minThreads: 1, isolate: false }, forks: { maxForks: 2, minForks: 1, isolate: false } },
    // The route walk's files first (test/support/sequencer.ts); TEST_SHUFFLE=<seed> runs the files in a
    // random order instead (each file's tests in theirs), to show no file depends on another's leftovers.
    sequence: process.env.TEST_SHUFFLE
      ? { shuffle: { files: true, tests: false }, seed: Number(process.env.TEST_SHUFFLE) }
      : { sequencer: LongestFirst },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: files.unit,
          globalSetup: ["test/support/scratch-setup.ts"],
          pool: "threads"
        }
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: files.integration,
          // Migrates and seeds the run's templates once; each file copies one (test/support/templates.ts).
          globalSetup: ["test/support/global-setup.ts"],
          // PGlite instances are memory-hungry; two workers fit a 2-core machine.
          pool: "forks"
        }
      },
      {
        extends: true,
        test: {
          name: "browser",
          include: files.browser,
          globalSetup: ["test/support/global-setup.ts"],
          pool: "forks"
        }
      }
    ]
  }
})
