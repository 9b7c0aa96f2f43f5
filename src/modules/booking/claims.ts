import { Deferred, Effect, Exit, Option } from "effect"

/**
 * In-process claims on providers' time, in front of the database's exclusion constraint.
 *
 * When many clients race for one slot, every loser used to queue for a database connection, then
 * wait on the winner's uncommitted row before learning the slot was taken. Here the first request
 * for a slot holds a claim while it books; a request of this process whose time overlaps a held
 * claim waits for that booking's outcome instead: stored, and the slot is taken at once without a
 * statement; not stored (refused by the database for a booking it already held, which may not
 * overlap the waiter's time, or failed), and the waiter books as if there had been no claim.
 *
 * The constraint stays the only authority (other processes, bookings committed earlier): a claim
 * never lets a booking through, it only spares the database the losers of a race.
 */
export interface SlotClaims {
  /**
   * Runs `book` (Some when it stored the booking, None when the slot was taken) under a claim on
   * `[start, end)` of the provider's time; None at once when an overlapping claim's booking succeeds.
   */
  readonly claim: <A, E, R>(
    providerId: string,
    start: Date,
    end: Date,
    book: Effect.Effect<Option.Option<A>, E, R>
  ) => Effect.Effect<Option.Option<A>, E, R>
}

interface Claim {
  readonly start: number
  readonly end: number
  /** true when the claim's booking was stored: every overlapping time is taken. */
  readonly outcome: Deferred.Deferred<boolean>
}

export const makeSlotClaims = (): SlotClaims => {
  const held = new Map<string, Array<Claim>>()

  const release = (providerId: string, claim: Claim) => {
    const claims = held.get(providerId)
    if (claims === undefined) return
    const rest = claims.filter((c) => c !== claim)
    if (rest.length === 0) held.delete(providerId)
    else held.set(providerId, rest)
  }

  /** The overlapping claim to wait for, or a new claim of ours (one synchronous step: no race). */
  const acquire = (providerId: string, start: number, end: number) =>
    Effect.map(Deferred.make<boolean>(), (outcome) => {
      const claims = held.get(providerId)
      const overlapping = claims?.find((c) => c.start < end && start < c.end)
      if (overlapping !== undefined) return { _tag: "Wait" as const, claim: overlapping }
      const mine: Claim = { start, end, outcome }
      if (claims === undefined) held.set(providerId, [mine])
      else claims.push(mine)
      return { _tag: "Held" as const, claim: mine }
    })

  const claim = <A, E, R>(
    providerId: string,
    start: Date,
    end: Date,
    book: Effect.Effect<Option.Option<A>, E, R>
  ): Effect.Effect<Option.Option<A>, E, R> =>
    Effect.flatMap(acquire(providerId, start.getTime(), end.getTime()), (acquired) =>
      acquired._tag === "Wait"
        ? Effect.flatMap(Deferred.await(acquired.claim.outcome), (taken) => (taken ? Effect.succeed(Option.none<A>()) : book))
        : Effect.onExit(book, (exit) =>
            Effect.suspend(() => {
              release(providerId, acquired.claim)
              return Deferred.succeed(acquired.claim.outcome, Exit.isSuccess(exit) && Option.isSome(exit.value))
            })
          )
    )

  return { claim }
}
