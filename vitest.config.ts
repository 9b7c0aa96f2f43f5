import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    exclude: ["test/bench/**", "node_modules/**"],
    // Creates the shared PostgreSQL extensions once, before files migrate their schemas in parallel.
    globalSetup: ["test/support/global-setup.ts"],
    testTimeout: 30_000,
    // Access logs go straight to pino at LOG_LEVEL; tests only want warnings.
    env: { LOG_LEVEL: "warn" },
    hookTimeout: 60_000,
    // PGlite instances are memory-hungry; two workers fit a 2-core machine.
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    reporters: process.env.CI ? ["default"] : ["default"]
  }
})
