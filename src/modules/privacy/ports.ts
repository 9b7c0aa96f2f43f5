import { Context, type Effect, type Option } from "effect"
import type { DeletionBlockers } from "./domain"

/** What the platform holds about one person, across every module's tables (Postgres: adapters/postgres.ts). */
export interface PersonalDataShape {
  /** Whether a booking under way or money held stops the deletion; run inside the deletion's transaction (it locks the bookings). */
  readonly blockers: (userId: string) => Effect.Effect<DeletionBlockers>
  /** The user's own records as a JSON document (nobody else's personal data: other parties by display name only). */
  readonly archive: (userId: string, at: Date) => Effect.Effect<Record<string, unknown>>
  /**
   * Erases or anonymises everything that identifies the person (see the module's README for the list) and
   * answers the uploaded files to remove once committed. Payments, bookings and reviews stay, without
   * personal data.
   */
  readonly erase: (userId: string, at: Date) => Effect.Effect<ReadonlyArray<string>>
}
export class PersonalData extends Context.Tag("privacy/PersonalData")<PersonalData, PersonalDataShape>() {}

/** Prepared exports: stored with a hashed random token, downloadable until they expire. */
export interface DataExportStoreShape {
  /**
   * Stores a ready archive and answers the token of its link (the only copy: it is stored hashed); None
   * when the account was deleted meanwhile (it waits for a deletion under way, which locks the account).
   */
  readonly create: (userId: string, archive: Record<string, unknown>, at: Date, expiresAt: Date) => Effect.Effect<Option.Option<string>>
  /**
   * Takes the archive behind a token, once: when it exists, was not downloaded, has not expired,
   * belongs to an active account and was made under its current password. The download is recorded
   * and the archive dropped in the same statement, so two requests at once get it once.
   */
  readonly claim: (token: string, at: Date) => Effect.Effect<Option.Option<{ readonly userId: string; readonly archive: unknown }>>
}
export class DataExportStore extends Context.Tag("privacy/DataExportStore")<DataExportStore, DataExportStoreShape>() {}
