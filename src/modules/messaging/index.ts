export { MessagingLive } from "./service"
export { ConversationsApi, ConversationView, MessageView } from "./contract"
