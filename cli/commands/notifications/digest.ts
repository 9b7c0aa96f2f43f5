import { Flags } from "@oclif/core"
import { Effect } from "effect"
import { type DigestRun, NotificationSettings } from "../../../src/modules/notifications"
import { JsonCommand } from "../../base"

export type DigestResult =
  | { readonly sent: DigestRun }
  | { readonly pending: { readonly recipients: number; readonly items: number; readonly dueItems: number } }

/** The digest pass the server runs every 15 minutes, or a report of what waits. */
export const runDigests = (now: boolean): Effect.Effect<DigestResult, never, NotificationSettings> =>
  Effect.flatMap(
    NotificationSettings,
    (settings): Effect.Effect<DigestResult> =>
      now ? Effect.map(settings.sendDueDigests, (run) => ({ sent: run })) : Effect.map(settings.pendingDigests, (pending) => ({ pending }))
  )

export const renderDigests = (result: DigestResult) =>
  "sent" in result
    ? `${result.sent.digests} digest(s) sent listing ${result.sent.items} item(s); ${result.sent.suppressed} item(s) suppressed (notifications turned off since)`
    : `${result.pending.items} item(s) waiting for ${result.pending.recipients} recipient(s), ${result.pending.dueItems} due now (run with --now to send them)`

export default class NotificationsDigest extends JsonCommand {
  static override description =
    "Send the notification digests that are due (daily at 08:00, weekly on Monday 08:00, in each recipient's time zone) now, through the same service as the server's scheduled job; without --now, report what waits"
  static override examples = ["<%= config.bin %> notifications:digest", "<%= config.bin %> notifications:digest --now"]
  static override flags = { now: Flags.boolean({ description: "Send the due digests now", default: false }) }

  async run() {
    const { flags } = await this.parse(NotificationsDigest)
    const result = await this.runEffect(runDigests(flags.now))
    this.print(result, () => renderDigests(result))
  }
}
