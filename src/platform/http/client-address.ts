import { HttpServerRequest } from "@effect/platform"
import { Effect, Option } from "effect"
import { AppConfig, normalizeAddress, type TrustProxy } from "../config"

/**
 * The client's address given the socket's peer and X-Forwarded-For (pure). The chain is read from the
 * server outwards: the socket's peer, then the forwarded entries from the right. Without trusted
 * proxies the peer is the client (a forged X-Forwarded-For changes nothing); with `Hops` n the n-th
 * hop outwards is (the furthest one when the chain is shorter); with `Addresses` the first hop that is
 * not one of the trusted proxies is.
 */
export const resolveClientAddress = (peer: string | undefined, forwardedFor: string | undefined, trust: TrustProxy): string => {
  const socket = peer === undefined ? "unknown" : normalizeAddress(peer)
  if (trust._tag === "None") return socket
  const forwarded = (forwardedFor ?? "")
    .split(",")
    .map(normalizeAddress)
    .filter((a) => a !== "")
  const chain = [socket, ...forwarded.reverse()]
  if (trust._tag === "Hops") return chain[Math.min(trust.hops, chain.length - 1)]!
  let hop = 0
  while (hop < chain.length - 1 && trust.addresses.includes(chain[hop]!)) hop++
  return chain[hop]!
}

/** The requesting client's address, as every rate limiter keys it (TRUST_PROXY decides). */
export const clientAddress = Effect.map(Effect.zip(HttpServerRequest.HttpServerRequest, AppConfig), ([request, config]) =>
  resolveClientAddress(Option.getOrUndefined(request.remoteAddress), request.headers["x-forwarded-for"], config.trustProxy)
)

/** A request from this machine itself, told by the socket alone and never through a proxy (loopback peer, no forwarding header). */
export const isLocalRequest = (request: HttpServerRequest.HttpServerRequest) => {
  const peer = Option.map(request.remoteAddress, normalizeAddress)
  const loopback = Option.exists(peer, (address) => address === "::1" || /^127\.\d+\.\d+\.\d+$/.test(address))
  return (
    loopback &&
    request.headers["x-forwarded-for"] === undefined &&
    request.headers["forwarded"] === undefined &&
    request.headers["x-real-ip"] === undefined
  )
}
