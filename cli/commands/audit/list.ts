import { Flags } from "@oclif/core"
import { AUDIT_PAGE_SIZE, AuditActions, AuditSubjectTypes } from "../../../src/modules/administration/rules"
import { JsonCommand } from "../../base"
import { listAudit, renderAudit } from "../administration"

export default class AuditList extends JsonCommand {
  static override description = "The audit log of administrators' decisions, newest first, with filters (the /admin/audit screen's)"
  static override examples = [
    "<%= config.bin %> audit:list --json",
    "<%= config.bin %> audit:list --action BOOKING_REFUNDED --from 2026-11-01 --to 2026-11-30",
    "<%= config.bin %> audit:list --actor admin@example.com --subject-type BOOKING --subject-id 3f1c...e9 --json"
  ]
  static override flags = {
    action: Flags.string({ options: [...AuditActions], description: "One action code" }),
    actor: Flags.string({ description: "The deciding administrator: account id or email" }),
    "subject-type": Flags.string({ options: [...AuditSubjectTypes], description: "What the decision was about" }),
    "subject-id": Flags.string({ description: "The subject's id (a booking's, a user's...)" }),
    from: Flags.string({ description: "First day, YYYY-MM-DD (UTC), inclusive" }),
    to: Flags.string({ description: "Last day, YYYY-MM-DD (UTC), inclusive" }),
    page: Flags.integer({ default: 1, min: 1 }),
    limit: Flags.integer({ default: AUDIT_PAGE_SIZE, min: 1, max: 100 })
  }

  async run() {
    const { flags } = await this.parse(AuditList)
    const list = await this.runEffect(listAudit({ ...flags, subjectType: flags["subject-type"], subjectId: flags["subject-id"] }))
    this.print(list, () => renderAudit(list))
  }
}
