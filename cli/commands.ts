import Migrate from "./commands/migrate"
import Seed from "./commands/seed"
import CreateAdmin from "./commands/users/create-admin"

/** oclif's explicit command strategy: the bundle carries its commands (no directory scan). */
export const commands = {
  migrate: Migrate,
  seed: Seed,
  "users:create-admin": CreateAdmin
}
