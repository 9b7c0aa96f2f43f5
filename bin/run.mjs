import module from "node:module"

// Node keeps the compiled CLI on disk (its temporary folder): every command after the first starts faster.
module.enableCompileCache?.()
const { execute } = await import("@oclif/core")
await execute({ dir: import.meta.url })
