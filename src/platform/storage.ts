import { Context, Effect, Layer, Option } from "effect"
import * as crypto from "node:crypto"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { AppConfig } from "./config"
import { isUuid } from "./ids"

/**
 * Where uploaded files live: a flat key/value store of bytes. Keys are always generated here
 * (`<area>/<uuid>`), never derived from a user's file name, so nothing a user sends reaches the file
 * system's paths. Failures of the storage itself are defects (a 500), like a database outage.
 */
export const StorageAreas = ["avatars", "profile-photos", "applications", "disputes", "service-photos"] as const
export type StorageArea = (typeof StorageAreas)[number]

/** True for a key this module could have generated (the only ones adapters accept): `<area>/<lowercase uuid>`. */
export const isStorageKey = (key: string) => {
  const slash = key.indexOf("/")
  const id = key.slice(slash + 1)
  return slash > 0 && (StorageAreas as ReadonlyArray<string>).includes(key.slice(0, slash)) && isUuid(id) && id === id.toLowerCase()
}

export const newStorageKey = (area: StorageArea) => `${area}/${crypto.randomUUID()}`

export interface StorageShape {
  /** Stores bytes under a key from `newStorageKey` (replacing what was there). */
  readonly put: (key: string, bytes: Uint8Array) => Effect.Effect<void>
  readonly get: (key: string) => Effect.Effect<Option.Option<Uint8Array>>
  /** Removes a file; removing a missing one is not an error. */
  readonly remove: (key: string) => Effect.Effect<void>
  /** Every stored key (tests and operators checking that nothing is left behind). */
  readonly keys: () => Effect.Effect<ReadonlyArray<string>>
}
export class Storage extends Context.Tag("platform/Storage")<Storage, StorageShape>() {}

const checked = (key: string) => (isStorageKey(key) ? Effect.succeed(key) : Effect.dieMessage(`not a storage key: ${JSON.stringify(key)}`))

/** Removes every key, ignoring failures (clean-up after a failed write). */
export const removeAll = (storage: StorageShape, keys: ReadonlyArray<string>) =>
  Effect.forEach(
    keys,
    (key) => Effect.catchAllCause(storage.remove(key), (cause) => Effect.logWarning("could not remove an upload", cause)),
    {
      discard: true
    }
  )

/** Files on the local disk under `DATA_DIR/uploads/<area>/<uuid>`, written atomically (temp file + rename). */
export const localDiskStorage = (root: string): StorageShape => {
  const fileOf = (key: string) => path.join(root, ...key.split("/"))
  return {
    put: (key, bytes) =>
      Effect.flatMap(checked(key), (key) =>
        Effect.promise(async () => {
          const file = fileOf(key)
          await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 })
          const temp = `${file}.${crypto.randomBytes(6).toString("hex")}.tmp`
          try {
            await fs.writeFile(temp, bytes, { mode: 0o600, flag: "wx" })
            await fs.rename(temp, file)
          } catch (error) {
            await fs.rm(temp, { force: true })
            throw error
          }
        })
      ),
    get: (key) =>
      Effect.flatMap(checked(key), (key) =>
        Effect.promise(async () => {
          try {
            return Option.some(new Uint8Array(await fs.readFile(fileOf(key))))
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code === "ENOENT") return Option.none()
            throw error
          }
        })
      ),
    remove: (key) => Effect.flatMap(checked(key), (key) => Effect.promise(() => fs.rm(fileOf(key), { force: true }))),
    keys: () =>
      Effect.promise(async () => {
        const found: Array<string> = []
        for (const area of StorageAreas) {
          try {
            for (const name of await fs.readdir(path.join(root, area))) found.push(`${area}/${name}`)
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error
          }
        }
        return found
      })
  }
}

/** The local-disk adapter under `DATA_DIR/uploads` (the default). */
export const LocalDiskStorageLive = Layer.effect(
  Storage,
  Effect.map(AppConfig, (config) => localDiskStorage(path.resolve(config.dataDir, "uploads")))
)

/** Files in memory (domain tests): same contract, nothing on disk. */
export const InMemoryStorage = Layer.sync(Storage, () => {
  const files = new Map<string, Uint8Array>()
  return {
    put: (key, bytes) => Effect.map(checked(key), (key) => void files.set(key, new Uint8Array(bytes))),
    get: (key) => Effect.map(checked(key), (key) => Option.fromNullable(files.get(key))),
    remove: (key) => Effect.map(checked(key), (key) => void files.delete(key)),
    keys: () => Effect.sync(() => [...files.keys()])
  }
})
