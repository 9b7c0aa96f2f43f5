import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { Identity, type User } from "../modules/identity"
import { seedDemoServices } from "../modules/catalogue/demo"
import { seedDemoAvailability, seedDemoBookings } from "../modules/booking/demo"
import { SandboxConnect } from "../modules/payments/adapters/sandbox"
import type { Language } from "../platform/messages"
import { single } from "../platform/rows"

export interface DemoAccount {
  readonly email: string
  readonly password: string
  readonly role: User["role"]
  readonly firstName: string
  readonly lastName: string
  readonly phoneNumber: string
  readonly preferredLanguage: Language
  /** Where they live: their account's zone, the one their hours, bookings and mails are read in. */
  readonly timeZone: string
  /** A provider's payout country (their bank's). */
  readonly payoutCountry?: string
}

/**
 * Demo accounts (verified emails) so a newcomer and scripts can log in at once. The providers work
 * where their services are: Marie in Paris (services in France), Jean in Québec and Montréal, Emily
 * in Toronto and Montréal (both on Eastern time).
 */
export const demoAccounts: ReadonlyArray<DemoAccount> = [
  {
    email: "admin@marketplace.local",
    password: "Admin1234!",
    role: "ADMIN",
    firstName: "Alice",
    lastName: "Martin",
    phoneNumber: "5145550100",
    preferredLanguage: "fr",
    timeZone: "America/Toronto"
  },
  {
    email: "marie.dubois@marketplace.local",
    password: "Provider1234!",
    role: "PROVIDER",
    firstName: "Marie",
    lastName: "Dubois",
    phoneNumber: "0145550101",
    preferredLanguage: "fr",
    timeZone: "Europe/Paris",
    payoutCountry: "FR"
  },
  {
    email: "jean.tremblay@marketplace.local",
    password: "Provider1234!",
    role: "PROVIDER",
    firstName: "Jean",
    lastName: "Tremblay",
    phoneNumber: "4385550102",
    preferredLanguage: "fr",
    timeZone: "America/Toronto",
    payoutCountry: "CA"
  },
  {
    email: "emily.clark@marketplace.local",
    password: "Provider1234!",
    role: "PROVIDER",
    firstName: "Emily",
    lastName: "Clark",
    phoneNumber: "4165550103",
    preferredLanguage: "en",
    timeZone: "America/Toronto",
    payoutCountry: "CA"
  },
  {
    email: "lucas.bernard@marketplace.local",
    password: "Client1234!",
    role: "CLIENT",
    firstName: "Lucas",
    lastName: "Bernard",
    phoneNumber: "0612345678",
    preferredLanguage: "fr",
    timeZone: "Europe/Paris"
  },
  {
    email: "sophie.nguyen@marketplace.local",
    password: "Client1234!",
    role: "CLIENT",
    firstName: "Sophie",
    lastName: "Nguyen",
    phoneNumber: "0712345605",
    preferredLanguage: "en",
    timeZone: "Europe/Paris"
  }
]

/**
 * Creates the demo accounts that do not exist yet, and gives the demo providers a completed sandbox
 * payout account (in sandbox mode; skipped against Stripe); running it twice changes nothing.
 */
export const seedDemoData = Effect.gen(function* () {
  const identity = yield* Identity
  const sandbox = yield* SandboxConnect
  const results: Array<DemoAccount & { readonly created: boolean }> = []
  for (const account of demoAccounts) {
    const existing = yield* identity.findByEmail(account.email)
    const user = Option.isSome(existing) ? existing.value : yield* identity.createAccount({ ...account, confirmPassword: account.password })
    if (account.payoutCountry) yield* sandbox.provisionReady(user, account.payoutCountry)
    results.push({ ...account, created: Option.isNone(existing) })
  }
  // Bilingual demo services of the demo providers (those not there yet).
  yield* seedDemoServices
  // Their weekly plans (those without one yet).
  yield* seedDemoAvailability
  // Bookings between them in several states (sandbox payments only; once).
  yield* seedDemoBookings
  return results
})

/** The database has no account yet: the first start of a fresh install. */
export const isEmptyDatabase = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  single("users count", Schema.Struct({ n: Schema.Number }), sql`SELECT count(*) AS n FROM users`).pipe(Effect.map((row) => row.n === 0))
)
