import { describe, expect, it } from "vitest"
import { MAX_PAGE, MAX_PAGE_SIZE } from "../../src/platform/paging"
import { httpWorld } from "../support/world"

// Every list reads `page` and `limit` one way (platform/paging.ts): clamped into bounds, never refused
// nor reset, each list keeping its own default size.

const { api, admin, client } = httpWorld({ admin: true, client: true })

const lists = () => [
  { path: "/api/users/me/favorites", token: client.token, defaultLimit: 20 },
  { path: "/api/admin/applications", token: admin.token, defaultLimit: 20 },
  { path: "/api/admin/users", token: admin.token, defaultLimit: 20 },
  { path: "/api/admin/payments", token: admin.token, defaultLimit: 20 },
  { path: "/api/bookings/me", token: client.token, defaultLimit: 20 },
  { path: "/api/conversations", token: client.token, defaultLimit: 20 }
]

const paginationOf = async (path: string, token: string, query: string) => {
  const reply = await api.get(`${path}?${query}`, { token })
  expect(reply.status, `${path}?${query}: ${reply.text}`).toBe(200)
  return reply.body.data.pagination
}

describe("every list pages the same way", () => {
  it("defaults, clamps the size to 1..100 and the page to 1..MAX_PAGE, truncates fractions", async () => {
    for (const { path, token, defaultLimit } of lists()) {
      expect(await paginationOf(path, token, ""), path).toMatchObject({ page: 1, limit: defaultLimit })
      expect(await paginationOf(path, token, "page=abc&limit=abc"), path).toMatchObject({ page: 1, limit: defaultLimit })
      expect(await paginationOf(path, token, "page=-4&limit=0"), path).toMatchObject({ page: 1, limit: 1 })
      expect(await paginationOf(path, token, "page=2.9&limit=3.5"), path).toMatchObject({ page: 2, limit: 3 })
      expect(await paginationOf(path, token, "page=250000&limit=500"), path).toMatchObject({ page: 250000, limit: MAX_PAGE_SIZE })
      expect(await paginationOf(path, token, "page=1e40"), path).toMatchObject({ page: MAX_PAGE })
    }
  })
})
