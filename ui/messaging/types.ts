// Shapes of the messaging API and of its real-time events (src/modules/messaging/api.ts and adapters/socket.ts).

import type { Pagination } from "../api/types"

export interface Participant {
  readonly id: string
  readonly firstName: string
  readonly lastName: string
}

export interface Message {
  readonly id: string
  readonly conversationId: string
  readonly senderId: string
  readonly content: string
  readonly createdAt: string
  readonly isRead: boolean
  readonly readAt: string | null
}

export interface Conversation {
  readonly id: string
  readonly title: string | null
  readonly serviceId: string | null
  readonly participants: ReadonlyArray<Participant>
  readonly unreadCount: number
  readonly lastMessage: (Message & { readonly sender: { readonly id: string; readonly firstName: string } }) | null
  readonly lastMessageAt: string
  readonly createdAt: string
}

export interface ConversationPage {
  readonly conversations: ReadonlyArray<Conversation>
  readonly pagination: Pagination
}

export interface MessagePage {
  readonly messages: ReadonlyArray<Message>
  readonly pagination: Pagination
}

// ---- Real-time events ----

export interface MessageReceived {
  readonly conversationId: string
  readonly message: Message
  readonly sender: { readonly id: string; readonly firstName: string; readonly lastName: string }
}
export interface MessagesRead {
  readonly conversationId: string
  readonly readerId: string
  readonly messageIds: ReadonlyArray<string>
  readonly readAt: string
}
export interface UserTyping {
  readonly conversationId: string
  readonly userId: string
  readonly isTyping: boolean
}
export interface Presence {
  readonly userId: string
}

/** An acknowledgement: the success or the error envelope. */
export type Ack<T> = { readonly success: true; readonly data: T } | { readonly success: false; readonly code: string; readonly message: string }
