import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { billingProblems } from "../../src/modules/booking/rules"

// The checkout step's billing rule, shared by the server (422 per field) and the payment form.
const FIELDS = ["name", "email", "address.line1", "address.city", "address.postal_code", "address.country"] as const
const complete = {
  name: "Ana Lima",
  email: "ana@example.com",
  line1: "1 rue de la Paix",
  city: "Paris",
  postal_code: "75002",
  country: "FR"
}
const blank = fc.constantFrom("", " ", "\u00a0\t ", undefined, null, 42)

describe("billingProblems", () => {
  it("flags exactly the blank fields, in the form's order, and nothing for complete details", () => {
    fc.assert(
      fc.property(fc.subarray([...FIELDS]), fc.array(blank, { minLength: 6, maxLength: 6 }), (blanked, blanks) => {
        const value = (field: (typeof FIELDS)[number], filled: string) => (blanked.includes(field) ? blanks[FIELDS.indexOf(field)] : filled)
        const problems = billingProblems({
          name: value("name", complete.name),
          email: value("email", complete.email),
          address: {
            line1: value("address.line1", complete.line1),
            city: value("address.city", complete.city),
            postal_code: value("address.postal_code", complete.postal_code),
            country: value("address.country", complete.country)
          }
        })
        expect(Object.keys(problems)).toEqual(FIELDS.filter((field) => blanked.includes(field)))
        expect(Object.values(problems).every((problem) => problem === "required")).toBe(true)
      })
    )
  })

  it("refuses a malformed email and accepts well-formed ones", () => {
    for (const email of ["ana", "ana@", "ana@example", "@example.com", "ana lima@example.com"])
      expect(billingProblems({ ...complete, email, address: complete }).email).toBe("email")
    fc.assert(fc.property(fc.emailAddress(), (email) => billingProblems({ name: "A", email, address: complete }).email === undefined))
  })
})
