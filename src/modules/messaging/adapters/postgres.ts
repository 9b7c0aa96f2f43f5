import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import { type MessageRecord, pairKey, type Participant } from "../domain"
import { type ConversationRecord, ConversationRepository, type ConversationSummary } from "../ports"

interface SummaryRow {
  readonly id: string
  readonly title: string | null
  readonly serviceId: string | null
  readonly lastMessageAt: Date
  readonly createdAt: Date
  readonly participants: ReadonlyArray<Participant>
  readonly unreadCount: number
  readonly lastId: string | null
  readonly lastSenderId: string | null
  readonly lastContent: string | null
  readonly lastCreatedAt: Date | null
  readonly lastReadAt: Date | null
  readonly lastSenderFirstName: string | null
  readonly total: number
}

const toSummary = (row: SummaryRow): ConversationSummary => ({
  id: row.id,
  title: row.title,
  serviceId: row.serviceId,
  lastMessageAt: row.lastMessageAt,
  createdAt: row.createdAt,
  participants: row.participants,
  participantIds: row.participants.map((p) => p.id),
  unreadCount: row.unreadCount,
  lastMessage:
    row.lastId === null
      ? null
      : {
        id: row.lastId,
        conversationId: row.id,
        senderId: row.lastSenderId!,
        content: row.lastContent!,
        createdAt: row.lastCreatedAt!,
        readAt: row.lastReadAt,
        senderFirstName: row.lastSenderFirstName!
      }
})

export const ConversationRepositoryLive = Layer.effect(
  ConversationRepository,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const messageColumns = sql.unsafe(`m.id, m.conversation_id AS "conversationId", m.sender_id AS "senderId", m.content,
      m.created_at AS "createdAt", m.read_at AS "readAt"`)
    const conversationColumns = sql.unsafe(`c.id, c.title, c.service_id AS "serviceId", c.last_message_at AS "lastMessageAt",
      c.created_at AS "createdAt",
      ARRAY(SELECT p.user_id::text FROM conversation_participants p WHERE p.conversation_id = c.id ORDER BY p.joined_at, p.user_id) AS "participantIds"`)

    /**
     * Conversations as `viewerId` sees them, in one statement: participants, the viewer's unread count
     * (partial index on unread rows), the last message with its sender's first name, and the total.
     */
    const summaries = (viewerId: string, where: ReturnType<typeof sql.unsafe>, limit: number, offset: number) =>
      sql<SummaryRow>`
        SELECT c.id, c.title, c.service_id AS "serviceId", c.last_message_at AS "lastMessageAt", c.created_at AS "createdAt",
          (SELECT coalesce(json_agg(json_build_object('id', u.id, 'firstName', u.first_name, 'lastName', u.last_name)
             ORDER BY cp.joined_at, u.id), '[]'::json)
           FROM conversation_participants cp JOIN users u ON u.id = cp.user_id WHERE cp.conversation_id = c.id) AS participants,
          (SELECT count(*)::int FROM messages m
           WHERE m.conversation_id = c.id AND m.read_at IS NULL AND m.sender_id <> ${viewerId}) AS "unreadCount",
          lm.id AS "lastId", lm.sender_id AS "lastSenderId", lm.content AS "lastContent", lm.created_at AS "lastCreatedAt",
          lm.read_at AS "lastReadAt", lm.first_name AS "lastSenderFirstName",
          count(*) OVER ()::int AS total
        FROM conversation_participants p
        JOIN conversations c ON c.id = p.conversation_id
        LEFT JOIN LATERAL (
          SELECT m.id, m.sender_id, m.content, m.created_at, m.read_at, u.first_name
          FROM messages m JOIN users u ON u.id = m.sender_id
          WHERE m.conversation_id = c.id ORDER BY m.seq DESC LIMIT 1
        ) lm ON true
        WHERE p.user_id = ${viewerId} AND ${where}
        ORDER BY c.last_message_at DESC, c.id DESC
        LIMIT ${limit} OFFSET ${offset}`

    const findPair = (a: string, b: string, serviceId: string | null) =>
      sql<ConversationRecord>`SELECT ${conversationColumns} FROM conversations c
        WHERE c.pair_key = ${pairKey(a, b)} AND c.service_id IS NOT DISTINCT FROM ${serviceId}::uuid`.pipe(
        Effect.map((rows) => Option.fromNullable(rows[0]))
      )

    return {
      find: (id) =>
        sql<ConversationRecord>`SELECT ${conversationColumns} FROM conversations c WHERE c.id = ${id}`.pipe(
          Effect.map((rows) => Option.fromNullable(rows[0])),
          Effect.orDie
        ),
      findPair: (a, b, serviceId) => findPair(a, b, serviceId).pipe(Effect.orDie),
      create: ({ at, participantIds: [a, b], serviceId, title }) =>
        Effect.gen(function*() {
          // A concurrent request may create the same pair first: the unique key decides, the loser reads it.
          const inserted = yield* sql<{ id: string }>`
            INSERT INTO conversations (title, service_id, pair_key, last_message_at, created_at)
            VALUES (${title}, ${serviceId}::uuid, ${pairKey(a, b)}, ${at}, ${at})
            ON CONFLICT DO NOTHING RETURNING id`
          if (inserted.length === 0) {
            const existing = yield* findPair(a, b, serviceId)
            return { conversation: Option.getOrThrow(existing), created: false }
          }
          const id = inserted[0]!.id
          yield* sql`INSERT INTO conversation_participants (conversation_id, user_id, joined_at)
            VALUES (${id}, ${a}, ${at}), (${id}, ${b}, ${at})`
          const [conversation] = yield* sql<ConversationRecord>`SELECT ${conversationColumns} FROM conversations c WHERE c.id = ${id}`
          return { conversation: conversation!, created: true }
        }).pipe(Effect.orDie),
      summary: (id, viewerId) =>
        summaries(viewerId, sql`c.id = ${id}`, 1, 0).pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toSummary)),
          Effect.orDie
        ),
      listFor: (userId, page) =>
        Effect.gen(function*() {
          const rows = yield* summaries(userId, sql`true`, page.limit, page.offset)
          // Past the last page there is no row to carry the total: count apart (rare).
          const total = rows[0]?.total ??
            (yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM conversation_participants WHERE user_id = ${userId}`)[0]!.n
          return { rows: rows.map(toSummary), total }
        }).pipe(Effect.orDie),
      addMessage: ({ at, content, conversationId, senderId }) =>
        Effect.gen(function*() {
          const [message] = yield* sql<MessageRecord>`
            INSERT INTO messages AS m (conversation_id, sender_id, content, created_at)
            VALUES (${conversationId}, ${senderId}, ${content}, ${at}) RETURNING ${messageColumns}`
          yield* sql`UPDATE conversations SET last_message_at = GREATEST(last_message_at, ${at}) WHERE id = ${conversationId}`
          return message!
        }).pipe(Effect.orDie),
      messages: (conversationId, page) =>
        Effect.gen(function*() {
          const rows = yield* sql<MessageRecord & { total: number }>`
            SELECT ${messageColumns}, count(*) OVER ()::int AS total FROM messages m
            WHERE m.conversation_id = ${conversationId} ORDER BY m.seq DESC LIMIT ${page.limit} OFFSET ${page.offset}`
          const total = rows[0]?.total ??
            (yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM messages WHERE conversation_id = ${conversationId}`)[0]!.n
          return { rows: rows.map(({ total: _, ...message }) => message), total }
        }).pipe(Effect.orDie),
      markRead: (conversationId, readerId, at, onlyIds) =>
        (onlyIds === undefined
          ? sql<{ id: string }>`UPDATE messages SET read_at = ${at}
              WHERE conversation_id = ${conversationId} AND sender_id <> ${readerId} AND read_at IS NULL RETURNING id`
          : sql<{ id: string }>`UPDATE messages SET read_at = ${at}
              WHERE conversation_id = ${conversationId} AND sender_id <> ${readerId} AND read_at IS NULL
                AND id = ANY (${onlyIds}::uuid[]) RETURNING id`).pipe(
          Effect.map((rows) => rows.map((r) => r.id)),
          Effect.orDie
        ),
      partnersOf: (userId) =>
        sql<{ id: string }>`SELECT DISTINCT o.user_id::text AS id FROM conversation_participants p
          JOIN conversation_participants o ON o.conversation_id = p.conversation_id AND o.user_id <> p.user_id
          WHERE p.user_id = ${userId}`.pipe(
          Effect.map((rows) => rows.map((r) => r.id)),
          Effect.orDie
        )
    }
  })
)
