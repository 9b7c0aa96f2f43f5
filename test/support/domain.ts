import { isChallenge, type Session, type TwoFactorChallenge } from "../../src/modules/identity/service"
import { Effect, Either, Layer, Logger, LogLevel, Option } from "effect"
import { InMemoryDomain } from "../../src/app/layers"
import { Catalogue } from "../../src/modules/catalogue"
import type { ServiceInput } from "../../src/modules/catalogue/domain"
import { type Actor, Identity, UserRepository } from "../../src/modules/identity"
import { PaymentAccountRepository } from "../../src/modules/payments/ports"
import { openAllTheTime } from "./availability"
import { normalizeEmail, type RegistrationInput } from "../../src/modules/identity/domain"
import { Outbox } from "../../src/modules/notifications"
import { type StoredMail } from "../../src/modules/notifications/ports"
import { AppConfigOf, type AppConfigShape } from "../../src/platform/config"
import { type AppError, httpStatusOf, isAppError } from "../../src/platform/errors"
import { scratchDir } from "./scratch"

/**
 * The whole domain (identity and notifications services) on the in-memory adapters: a fresh,
 * empty store on every build, the fast test hasher, and a JWT secret in a temporary DATA_DIR.
 */
export const inMemoryDomain = (overrides: Partial<AppConfigShape> = {}) =>
  InMemoryDomain.pipe(
    Layer.provideMerge(AppConfigOf({ dataDir: scratchDir("domain"), authRateLimit: 10_000, ...overrides })),
    // Expected warnings (replays detected) would drown the test output.
    Layer.provideMerge(Logger.minimumLogLevel(LogLevel.Error))
  )

/** A registration that passes every rule; `overrides` changes single fields. */
export const validRegistration = (overrides: Partial<RegistrationInput> & Record<string, unknown> = {}): RegistrationInput => ({
  firstName: "Camille",
  lastName: "Roy",
  email: `camille.${Math.random().toString(36).slice(2, 10)}@example.com`,
  phoneNumber: "5145550199",
  password: "Secret123!",
  confirmPassword: "Secret123!",
  ...overrides
})

/** Mails in the outbox addressed to `to`, newest first. */
export const mailsTo = (to: string) =>
  Effect.map(
    Effect.flatMap(Outbox, (outbox) => outbox.latest(1000)),
    (mails) => mails.filter((m) => m.to === to)
  )

/** The token of the newest link `/{kind}/{token}` in mails sent to `to`; fails the test when none. */
export const tokenFromMail = (mail: StoredMail, kind: "verify-email" | "reset-password") => {
  const match = new RegExp(`/${kind}/([A-Za-z0-9_-]+)`).exec(mail.text)
  if (!match) throw new Error(`no /${kind}/ link in mail "${mail.subject}": ${mail.text}`)
  return match[1]!
}

export const latestToken = (to: string, kind: "verify-email" | "reset-password") =>
  Effect.flatMap(mailsTo(to), (mails) => {
    const mail = mails.find((m) => m.text.includes(`/${kind}/`))
    return mail ? Effect.succeed(tokenFromMail(mail, kind)) : Effect.dieMessage(`no ${kind} mail to ${to}`)
  })

/** Registers; answers the account stored for the address (a new one, or its owner's when it had one). */
export const registerNow = (input: RegistrationInput, language: "fr" | "en") =>
  Effect.gen(function* () {
    yield* (yield* Identity).register(input, language)
    return Option.getOrThrow(yield* (yield* UserRepository).findByEmail(normalizeEmail(input.email ?? "")))
  })

/** Registers, verifies through the mailed link and answers the account and its password. */
export const verifiedAccount = (overrides: Partial<RegistrationInput> = {}) =>
  Effect.gen(function* () {
    const identity = yield* Identity
    const input = validRegistration(overrides)
    const user = yield* registerNow(input, "fr")
    yield* identity.verifyEmail(yield* latestToken(user.email, "verify-email"))
    return { user, email: user.email, password: input.password! }
  })

/** The failure of an effect that must fail, as the HTTP edge would see it (its code and status). */
export const failureOf = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.either(effect), (result) => {
    if (Either.isRight(result)) throw new Error(`expected a failure, got success: ${JSON.stringify(result.right)}`)
    const error = result.left
    if (!isAppError(error)) throw new Error(`expected an application error, got ${String(error)}`)
    return { error: error as AppError, code: (error as AppError).code, status: httpStatusOf[(error as AppError)._tag] }
  })

/** A login of an account without two-step login: its session (a two-step challenge fails the test). */
export const asSession = <E, R>(outcome: Effect.Effect<Session | TwoFactorChallenge, E, R>) =>
  Effect.flatMap(outcome, (o) => (isChallenge(o) ? Effect.dieMessage("unexpected two-step challenge") : Effect.succeed(o)))

/** The actor a service call is made as, for an account `verifiedAccount` made. */
export const actorOf = (user: { readonly id: string }, role: Actor["role"]): Actor => ({
  id: user.id,
  role,
  preferredLanguage: "fr",
  isEmailVerified: true
})

/**
 * The booking services' world, on the services themselves: a verified provider open at any time whose
 * payout account (`gateway`'s, `accountId`) can take charges, with one published service, and a verified
 * client to book it. Answers their actors, the service and the account id.
 */
export const bookableService = (
  options: {
    readonly gateway?: "sandbox" | "stripe"
    readonly accountId?: (providerId: string) => string
    readonly service?: Partial<ServiceInput>
  } = {}
) =>
  Effect.gen(function* () {
    const provider = yield* verifiedAccount()
    const client = yield* verifiedAccount()
    yield* Effect.flatMap(UserRepository, (users) => users.setRole(provider.user.id, "PROVIDER"))
    yield* openAllTheTime(provider.user.id)
    const accountId = (options.accountId ?? ((id) => `acct_sandbox_${id}`))(provider.user.id)
    yield* Effect.flatMap(PaymentAccountRepository, (accounts) =>
      accounts.upsert({
        userId: provider.user.id,
        gateway: options.gateway ?? "sandbox",
        accountId,
        country: "FR",
        chargesEnabled: true,
        payoutsEnabled: true,
        detailsSubmitted: true,
        requirementsDue: [],
        disabledReason: null
      })
    )
    const actors = { provider: actorOf(provider.user, "PROVIDER"), client: actorOf(client.user, "CLIENT") }
    const service = yield* Effect.flatMap(Catalogue, (catalogue) =>
      catalogue.create(actors.provider, {
        title: "Plomberie",
        description: "Réparation de fuites.",
        price: 60,
        duration: 60,
        location: "Nantes",
        categoryId: 7,
        ...options.service
      })
    )
    return { ...actors, service, accountId }
  })
