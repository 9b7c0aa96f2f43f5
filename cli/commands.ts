import ApplicationsApprove from "./commands/applications/approve"
import ApplicationsList from "./commands/applications/list"
import ApplicationsReject from "./commands/applications/reject"
import Migrate from "./commands/migrate"
import Seed from "./commands/seed"
import SeedBulk from "./commands/seed/bulk"
import CreateAdmin from "./commands/users/create-admin"

/** oclif's explicit command strategy: the bundle carries its commands (no directory scan). */
export const commands = {
  migrate: Migrate,
  seed: Seed,
  "seed:bulk": SeedBulk,
  "users:create-admin": CreateAdmin,
  "applications:list": ApplicationsList,
  "applications:approve": ApplicationsApprove,
  "applications:reject": ApplicationsReject
}
