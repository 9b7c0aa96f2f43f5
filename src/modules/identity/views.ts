import type { User } from "./domain"
import type { UserView } from "./contract"

// Domain records turned into the contract's views (contract.ts), by the handlers.

export const toUserView = (user: User): typeof UserView.Type => ({
  id: user.id,
  email: user.email,
  firstName: user.firstName,
  lastName: user.lastName,
  phoneNumber: user.phoneNumber,
  role: user.role,
  isEmailVerified: user.isEmailVerified,
  preferredLanguage: user.preferredLanguage,
  timeZone: user.timeZone,
  active: user.isActive,
  createdAt: user.createdAt
})

/**
 * The wire form of a UserView, exactly what encoding `toUserView(user)` with the schema gives (the
 * date as an ISO string), built directly: GET /api/auth/me answers it without HttpApi's schema pass.
 */
export const toUserViewEncoded = (user: User): UserView => ({ ...toUserView(user), createdAt: user.createdAt.toISOString() })
