import { Effect, Layer } from "effect"
import { attemptKey } from "./idempotency"
import { ChargeGateway, type ChargeGatewayShape, GatewayAttempts, type GatewayAttemptsShape, type PaymentGatewayError } from "./ports"

/**
 * Gives every write of a card gateway the key of its current attempt (see idempotency.ts): the
 * caller names the write, this adds `:attempt-<n>`, and moves the write to its next attempt when the
 * gateway answered with an error (or, off-session, refused the card: its answer is stored too). A try
 * that got no answer keeps its attempt, and so its key.
 */
export const withAttemptKeys = (gateway: ChargeGatewayShape, attempts: GatewayAttemptsShape): ChargeGatewayShape => {
  const attempted = <A>(
    key: string,
    run: (key: string) => Effect.Effect<A, PaymentGatewayError>,
    refused: (answer: A) => boolean = () => false
  ) =>
    Effect.gen(function* () {
      const attempt = yield* attempts.current(key)
      const next = attempts.advance(key, attempt)
      return yield* run(attemptKey(key, attempt)).pipe(
        Effect.tapError((error) => (error.unanswered === true ? Effect.void : next)),
        Effect.tap((answer) => (refused(answer) ? next : Effect.void))
      )
    })
  const createCardPayment = gateway.createCardPayment
  return {
    kind: gateway.kind,
    createCheckoutSession: (r) => attempted(r.idempotencyKey, (idempotencyKey) => gateway.createCheckoutSession({ ...r, idempotencyKey })),
    ...(createCardPayment
      ? { createCardPayment: (r) => attempted(r.idempotencyKey, (idempotencyKey) => createCardPayment({ ...r, idempotencyKey })) }
      : {}),
    capture: (r) => attempted(r.idempotencyKey, (idempotencyKey) => gateway.capture({ ...r, idempotencyKey })),
    cancelAuthorization: (r) => attempted(r.idempotencyKey, (idempotencyKey) => gateway.cancelAuthorization({ ...r, idempotencyKey })),
    refund: (r) => attempted(r.idempotencyKey, (idempotencyKey) => gateway.refund({ ...r, idempotencyKey })),
    authorizeOffSession: (r) =>
      attempted(
        r.idempotencyKey,
        (idempotencyKey) => gateway.authorizeOffSession({ ...r, idempotencyKey }),
        (result) => result._tag === "Refused"
      ),
    ensureCardAttached: (r) => attempted(r.idempotencyKey, (idempotencyKey) => gateway.ensureCardAttached({ ...r, idempotencyKey })),
    // Expiring a session is idempotent at the gateway, and listings are reads: no key to name.
    expireCheckoutSession: gateway.expireCheckoutSession,
    listOpenHolds: gateway.listOpenHolds,
    listCompletedCheckouts: gateway.listCompletedCheckouts,
    refundsOf: gateway.refundsOf,
    heldPayment: gateway.heldPayment
  }
}

/** Wraps the ChargeGateway a layer provides with attempt keys. */
export const withAttemptKeysLayer = <E, R>(inner: Layer.Layer<ChargeGateway, E, R>): Layer.Layer<ChargeGateway, E, R | GatewayAttempts> =>
  Layer.effect(
    ChargeGateway,
    Effect.gen(function* () {
      return withAttemptKeys(yield* ChargeGateway, yield* GatewayAttempts)
    })
  ).pipe(Layer.provide(inner))
