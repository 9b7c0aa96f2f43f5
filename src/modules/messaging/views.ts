import type { ConversationView, MessageView } from "./contract"
import type { MessageRecord, Participant } from "./domain"
import type { ConversationSummary } from "./ports"

// Messaging records turned into the contract's views (contract.ts), by the handlers and the socket.

export const toMessageView = (m: MessageRecord): typeof MessageView.Type => ({
  id: m.id,
  conversationId: m.conversationId,
  senderId: m.senderId,
  content: m.content,
  createdAt: m.createdAt,
  isRead: m.readAt !== null,
  readAt: m.readAt
})

export const toConversationView = (c: ConversationSummary): typeof ConversationView.Type => ({
  id: c.id,
  title: c.title,
  serviceId: c.serviceId,
  participants: c.participants.map((p: Participant) => ({ id: p.id, firstName: p.firstName, lastName: p.lastName })),
  unreadCount: c.unreadCount,
  lastMessage:
    c.lastMessage === null
      ? null
      : { ...toMessageView(c.lastMessage), sender: { id: c.lastMessage.senderId, firstName: c.lastMessage.senderFirstName } },
  lastMessageAt: c.lastMessageAt,
  createdAt: c.createdAt
})
