import type { AdminReportView, BlockView, ConversationView, MessageView, ReportView } from "./contract"
import type { MessageRecord, Participant } from "./domain"
import { readMessage } from "./masking"
import type { BlockRecord, ReportRecord } from "./ports"
import type { ConversationReading } from "./service"

// Messaging records turned into the contract's views (contract.ts), by the handlers and the socket.

/** Who reads: the masking and hiding depend on it. */
export interface Reader {
  readonly id: string
  readonly isAdmin: boolean
}

/**
 * A message as `reader` gets it: hidden by a moderator, an empty text for all but admins; in a
 * private conversation (no booking yet), contact details masked for the recipient (masking.ts).
 */
export const toMessageView = (m: MessageRecord, reader: Reader, isPrivate: boolean): typeof MessageView.Type => {
  const hidden = m.hiddenAt !== null
  const read = hidden && !reader.isAdmin ? { content: "", masked: false, maskedForRecipient: false } : readMessage(m, reader, isPrivate)
  return {
    id: m.id,
    conversationId: m.conversationId,
    senderId: m.senderId,
    content: read.content,
    createdAt: m.createdAt,
    isRead: m.readAt !== null,
    readAt: m.readAt,
    masked: read.masked,
    maskedForRecipient: read.maskedForRecipient,
    hidden
  }
}

export const toConversationView = (c: ConversationReading, reader: Reader): typeof ConversationView.Type => ({
  id: c.id,
  title: c.title,
  serviceId: c.serviceId,
  participants: c.participants.map((p: Participant) => ({ id: p.id, firstName: p.firstName, lastName: p.lastName })),
  unreadCount: c.unreadCount,
  lastMessage:
    c.lastMessage === null
      ? null
      : {
          ...toMessageView(c.lastMessage, reader, c.isPrivate),
          sender: { id: c.lastMessage.senderId, firstName: c.lastMessage.senderFirstName }
        },
  lastMessageAt: c.lastMessageAt,
  createdAt: c.createdAt,
  privateUntilBooked: c.isPrivate,
  blocked: c.blocked
})

export const toBlockView = (b: BlockRecord): typeof BlockView.Type => ({ user: b.user, createdAt: b.createdAt })

const person = (p: Participant) => ({ id: p.id, firstName: p.firstName, lastName: p.lastName })

export const toReportView = (r: ReportRecord): typeof ReportView.Type => ({
  id: r.id,
  reason: r.reason,
  details: r.details,
  status: r.status,
  reportedUser: person(r.reportedUser),
  messageId: r.messageId,
  createdAt: r.createdAt
})

/** For admins: the message as written (hidden or not), flagged as it would be masked for its recipient. */
export const toAdminReportView = (r: ReportRecord, admin: Reader): typeof AdminReportView.Type => ({
  ...toReportView(r),
  reporter: person(r.reporter),
  reportedUser: { ...person(r.reportedUser), isActive: r.reportedUser.isActive },
  message: r.message === null ? null : toMessageView(r.message, admin, true),
  decidedBy: r.decidedBy,
  decidedAt: r.decidedAt,
  decisionNote: r.decisionNote
})
