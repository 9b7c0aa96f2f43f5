import { Either } from "effect"
import { Conflict, invalid, issue, NotFound, type ValidationFailed } from "../../platform/errors"
import { type Role, Role as RoleSchema } from "./domain"
import { Schema } from "effect"

/**
 * An administrator's change to an account (spec admin section 4, "User"): the active flag, the role,
 * or both. Pure: the service loads the target and applies the decision.
 */
export interface AccountChangeInput {
  readonly isActive?: unknown
  readonly role?: unknown
}

export interface AccountChange {
  readonly isActive: boolean
  readonly role: Role
  /** Deactivation ends every session of the account (its refresh tokens are revoked). */
  readonly revokeSessions: boolean
}

export const UserNotFound = new NotFound({ code: "USER_NOT_FOUND", key: "admin.userNotFound" })
export const CannotDeactivateSelf = new Conflict({ code: "CANNOT_DEACTIVATE_SELF", key: "admin.cannotDeactivateSelf" })
export const CannotDemoteSelf = new Conflict({ code: "CANNOT_DEMOTE_SELF", key: "admin.cannotDemoteSelf" })

const isRole = Schema.is(RoleSchema)

/** "USER" is the admin filter's name for CLIENT (spec section 1); any case. */
export const parseRole = (value: string): Role | undefined => {
  const upper = value.trim().toUpperCase()
  const role = upper === "USER" ? "CLIENT" : upper
  return isRole(role) ? role : undefined
}

/**
 * Validates the payload (`isActive` a boolean, `role` one of the three, at least one of them) and
 * applies the rules: an admin can neither deactivate nor demote their own account, so the acting
 * admin always remains and the back-office can never lock itself out.
 */
export const decideAccountChange = (
  actor: { readonly id: string },
  target: { readonly id: string; readonly role: Role; readonly isActive: boolean },
  input: AccountChangeInput
): Either.Either<AccountChange, ValidationFailed | Conflict> => {
  const issues = []
  if (input.isActive !== undefined && input.isActive !== null && typeof input.isActive !== "boolean")
    issues.push(issue("isActive", "admin.isActiveInvalid"))
  const role = typeof input.role === "string" ? parseRole(input.role) : undefined
  if (input.role !== undefined && input.role !== null && role === undefined) issues.push(issue("role", "admin.roleInvalid"))
  const wantsActive = typeof input.isActive === "boolean" ? input.isActive : undefined
  if (issues.length === 0 && wantsActive === undefined && role === undefined) issues.push(issue("isActive", "admin.changeRequired"))
  if (issues.length > 0) return Either.left(invalid(issues))
  const self = actor.id === target.id
  if (self && wantsActive === false) return Either.left(CannotDeactivateSelf)
  if (self && role !== undefined && role !== target.role) return Either.left(CannotDemoteSelf)
  const isActive = wantsActive ?? target.isActive
  return Either.right({ isActive, role: role ?? target.role, revokeSessions: target.isActive && !isActive })
}
