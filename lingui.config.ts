import { defineConfig } from "@lingui/conf"

// French is the source language: messages are written in French in the code and their ids are
// generated from that text. Catalogs are compiled to TypeScript and committed, so the build never
// needs to run extract. After changing UI text:
//   npx lingui extract --clean                  (updates ui/locales/{fr,en}/messages.po)
//   translate the new English entries in ui/locales/en/messages.po
//   npx lingui compile --typescript --strict    (writes messages.ts; fails on a missing translation)
// test/ui/catalog.test.ts fails while a message lacks a French or English text.
export default defineConfig({
  locales: ["fr", "en"],
  sourceLocale: "fr",
  catalogs: [{ path: "<rootDir>/ui/locales/{locale}/messages", include: ["<rootDir>/ui"], exclude: ["**/locales/**"] }]
})
