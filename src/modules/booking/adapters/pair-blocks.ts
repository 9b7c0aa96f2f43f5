import { Effect, Layer } from "effect"
import { Moderation } from "../../messaging"
import { PairBlocks } from "../ports"

/**
 * The booking module's question "did these two block each other?", answered by messaging, which
 * keeps the blocks. Lives here so that messaging does not depend on bookings.
 */
export const PairBlocksFromMessaging = Layer.effect(
  PairBlocks,
  Effect.map(Moderation, (moderation) => ({ blockedEitherWay: moderation.blockedEitherWay }))
)
