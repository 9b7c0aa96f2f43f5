import { describe, expect, it } from "vitest"
import { checkNewPassword, checkRegistration, isPhone, isStrongPassword } from "../../ui/validation"

describe("client-side checks mirror the server's rules (spec section 5)", () => {
  it("requires a strong password", () => {
    expect(isStrongPassword("Client1234!")).toBe(true)
    for (const weak of ["Cl1!", "client1234!", "CLIENT1234!", "Clientabc!", "Client1234"]) expect(isStrongPassword(weak), weak).toBe(false)
  })

  it("wants 10 to 15 digits for a phone", () => {
    expect(isPhone("5145550142")).toBe(true)
    expect(isPhone("514555014")).toBe(false)
    expect(isPhone("514-555-0142")).toBe(false)
  })

  it("reports each field of a registration", () => {
    expect(
      checkRegistration({ firstName: "", lastName: " ", email: "x@", phoneNumber: "12", password: "short", confirmPassword: "other" })
    ).toEqual({
      firstName: "required",
      lastName: "required",
      email: "email",
      phoneNumber: "phone",
      password: "passwordTooShort",
      confirmPassword: "mismatch"
    })
    expect(
      checkRegistration({
        firstName: "A",
        lastName: "B",
        email: "a@b.ca",
        phoneNumber: "5145550142",
        password: "Client1234!",
        confirmPassword: "Client1234!"
      })
    ).toEqual({})
  })

  it("checks a new password and its confirmation", () => {
    expect(checkNewPassword("", "")).toEqual({ password: "required", confirmPassword: "required" })
    expect(checkNewPassword("longenough", "longenough")).toEqual({ password: "password" })
  })
})
