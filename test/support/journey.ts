import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from "playwright-core"
import { expect } from "vitest"
import { Identity, type User } from "../../src/modules/identity"
import { providerWithService } from "./accounts"
import { collectPageErrors, contextWithConsent, logInThroughUi, withServerAndChromium } from "./browser"
import { httpClient, registration } from "./http"
import type { startTestServer, TestServer } from "./server"
import { chooseDay, dayAhead, timeIn } from "./slots"
import { walkAccounts } from "./walker"

// The world of a browser journey, built one way for every file: the server and the worker's Chromium
// (withServerAndChromium), the server's public address, an API client, pages in consented contexts,
// and the few UI steps every journey repeats (logging in, a booking's card, closing the pages).

/** A page in a context of its own, with the errors the page logged. */
export interface JourneyPage {
  readonly context: BrowserContext
  readonly page: Page
  readonly errors: ReadonlyArray<string>
}

/** Who logs in: a test account (its password is every test account's unless given) or a demo one. */
export interface Credentials {
  readonly email: string
  readonly password?: string
}

/** Every account the test kit registers has this password (test/support/http.ts's registration()). */
export const testPassword = registration().password

/** The demo accounts of the seed (src/app/seed.ts), the ones the route walk logs in as. */
export const demoAccounts = walkAccounts

export interface Journey {
  readonly server: TestServer
  readonly browser: Browser
  /** The server's public URL (localhost): the sandbox's pages send the browser back there, so sessions live on it. */
  readonly base: string
  readonly api: ReturnType<typeof httpClient>
  /** A page in a new consented desktop context (French unless `locale` says, in the journey's zone unless `options` say). */
  readonly newPage: (locale?: string, options?: BrowserContextOptions) => Promise<JourneyPage>
  /** Logs `account` in on `page` through the login screen at `base`, in the screen's language (French by default). */
  readonly logIn: (page: Page, account: Credentials, language?: "fr" | "en") => Promise<void>
  /** A new page (as `newPage`) where `account` has logged in through the login screen of the browser's language. */
  readonly loggedInPage: (account: Credentials, locale?: string, options?: BrowserContextOptions) => Promise<JourneyPage>
}

export interface JourneyOptions<Extra> {
  /** The zone of every context the journey opens, unless a page's options say otherwise (the machine's by default). */
  readonly timezoneId?: string
  /** How the server starts (a clock the test moves, say: test/support/server.ts). */
  readonly serverOptions?: Parameters<typeof startTestServer>[1]
  /** The server's configuration overrides (a site name, say). */
  readonly config?: Parameters<typeof startTestServer>[0]
  /** The file's own state, built once the server runs (accounts, services): its fields join the journey's. */
  readonly setup?: (journey: Journey) => Promise<Extra>
}

/**
 * A browser journey's world, called inside the file's `describe`: registers the suite's hooks (the
 * server started, with the worker's Chromium; every context closed and the server stopped after) and
 * answers the journey, whose fields (and `setup`'s) are there once the hooks have run. Read them in a
 * test or a hook (`const { base, newPage } = journey`): read before, they throw rather than give undefined.
 */
export const browserJourney = <Extra extends object = Record<never, never>>(options: JourneyOptions<Extra> = {}): Journey & Extra => {
  let world: (Journey & Extra) | undefined
  withServerAndChromium(
    async ({ server, browser }) => {
      const base = `http://localhost:${server.port}`
      const zone = options.timezoneId === undefined ? {} : { timezoneId: options.timezoneId }
      const newPage = async (locale = "fr-FR", contextOptions: BrowserContextOptions = {}): Promise<JourneyPage> => {
        const context = await contextWithConsent(browser, { locale, ...zone, ...contextOptions })
        const page = await context.newPage()
        return { context, page, errors: collectPageErrors(page) }
      }
      const logIn = (page: Page, account: Credentials, language: "fr" | "en" = "fr") =>
        logInThroughUi(page, base, account.email, account.password ?? testPassword, language)
      const started: Journey = {
        server,
        browser,
        base,
        api: httpClient(server),
        newPage,
        logIn,
        loggedInPage: async (account, locale = "fr-FR", contextOptions = {}) => {
          const opened = await newPage(locale, contextOptions)
          // The login screen speaks the browser's language (the account's is only known once logged in).
          await logIn(opened.page, account, locale.startsWith("en") ? "en" : "fr")
          return opened
        }
      }
      world = { ...started, ...((await options.setup?.(started)) as Extra) }
    },
    options.serverOptions,
    options.config
  )
  return new Proxy({} as Journey & Extra, {
    get: (_, field) => {
      if (world === undefined) throw new Error(`browserJourney: ${String(field)} read before the suite's beforeAll hook ran`)
      return world[field as keyof (Journey & Extra)]
    }
  })
}

/**
 * A journey whose setup makes a payment-ready provider with one published service of `service`'s
 * fields (60 minutes in Montréal unless they say otherwise) and a client to book it: the journey's
 * `provider`, `client` and `serviceId`.
 */
export const serviceJourney = (service: Record<string, unknown>, options: Omit<JourneyOptions<never>, "setup"> = {}) =>
  browserJourney({ ...options, setup: ({ server, api }) => providerWithService(server, api, service) })

/** Each page logged no error (one assertion per page), then their contexts are closed. */
export const closeWithoutErrors = async (...pages: ReadonlyArray<JourneyPage>) => {
  for (const { errors } of pages) expect(errors).toEqual([])
  for (const { context } of pages) await context.close()
}

/**
 * An account made as an operator makes one (CLI, seed): verified at once, of any role, with no payout
 * account and no availability plan (unlike test/support/accounts.ts's). A unique email; the fields of
 * `registration()` unless given. Answers its id, email and password.
 */
export const operatorAccount = async (server: TestServer, role: User["role"], fields: Record<string, unknown> = {}) => {
  const input = registration({ ...fields, ...(fields.password === undefined ? {} : { confirmPassword: fields.password }) })
  const user = await server.run(Effect.flatMap(Identity, (identity) => identity.createAccount({ ...input, role })))
  return { id: user.id, email: input.email, password: input.password }
}

/** The rows of a query on the server's own database. */
export const sqlRows = <A extends object>(server: TestServer, text: string, params: ReadonlyArray<unknown> = []) =>
  server.run(Effect.flatMap(SqlClient.SqlClient, (db) => db.unsafe<A>(text, params)))

/** A booking's card on /bookings, named by its service's title. */
export const bookingCard = (page: Page, title: string) => page.getByRole("article", { name: title })

/** When a booking card says the booking starts (its first time's datetime attribute). */
export const cardStart = (card: Locator) => card.locator(".booking-facts time").first().getAttribute("datetime")

/** A figure of the back-office's stat cards (the dashboard, the finance page), by its label. */
export const statCard = (page: Page, label: string) =>
  page
    .locator(".stat-card")
    .filter({ has: page.getByText(label, { exact: true }) })
    .locator(".stat-value")

/**
 * The provider (in French) proposes a new time from a booking's card: in the dialog's slot picker,
 * the duration from `start` to `end`, the day of `start` and its time (in the browser's `zone`), sent,
 * the dialog gone and the card saying the proposal is theirs.
 */
export const proposeNewTime = async (page: Page, card: Locator, start: Date, end: Date, zone: string) => {
  await card.getByRole("button", { name: /Proposer un nouvel horaire/ }).click()
  const dialog = page.getByRole("dialog", { name: "Proposer un nouvel horaire" })
  await dialog.getByLabel("Durée").selectOption(String((end.getTime() - start.getTime()) / 60_000))
  await chooseDay(dialog, dayAhead(0, zone, start.getTime()))
  const time = dialog.getByRole("button", { name: new RegExp(`^${timeIn("fr", start, zone)}`) })
  await time.click()
  expect(await time.getAttribute("aria-pressed")).toBe("true")
  await dialog.getByRole("button", { name: "Envoyer la proposition" }).click()
  await expect.poll(() => dialog.count()).toBe(0)
  await expect.poll(() => card.textContent()).toContain("Vous proposez un nouvel horaire")
}

/**
 * The other party (in English) accepts the time proposed on a booking's card: the proposal shows
 * `start`, is accepted and goes, and the card now starts at `start`.
 */
export const acceptNewTime = async (card: Locator, start: Date) => {
  const proposal = card.getByRole("region", { name: "New time proposed" })
  await expect.poll(() => proposal.textContent()).toContain("proposes a new time")
  await expect.poll(async () => proposal.locator("time").first().getAttribute("datetime")).toBe(start.toISOString())
  await card.getByRole("button", { name: /Accept the new time/ }).click()
  await expect.poll(() => proposal.count()).toBe(0)
  await expect.poll(() => cardStart(card)).toBe(start.toISOString())
}
