import { Effect, Layer, Option } from "effect"
import { AccountDirectory } from "../notifications"
import type { User } from "./domain"
import { UserRepository } from "./ports"

const entryOf = (user: User) => ({
  id: user.id,
  email: user.email,
  firstName: user.firstName,
  language: user.preferredLanguage,
  timeZone: user.timeZone
})

/** Notifications' view of accounts (its in-memory preference store reads them here). */
export const AccountDirectoryFromUsers = Layer.effect(
  AccountDirectory,
  Effect.map(UserRepository, (users) =>
    AccountDirectory.of({
      byEmail: (email) => Effect.map(users.findByEmail(email), Option.map(entryOf)),
      byId: (id) => Effect.map(users.findById(id), Option.map(entryOf))
    })
  )
)
