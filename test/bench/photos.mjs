#!/usr/bin/env node
// Service photos (issue 14): the weight of a card's image (target: under 30 KB, for the 400 and the 800
// renditions a card may show) and the time an upload
// spends turning a phone-sized photo into its WebP renditions, through the module's own code
// (platform/uploads.ts webpRenditions with catalogue/rules.ts PHOTO_SIZES, bundled here by esbuild).
// The picture is made here, deterministic and detailed everywhere (textures at every scale plus
// sensor grain): harder to compress than most photographs, so the figures are an upper bound.
import sharp from "sharp"
import { importServerCode, root } from "./lib.mjs"

const { renditionsOf } = await importServerCode(
  root,
  "bench-photos",
  `
      import { Effect } from "effect"
      import { webpRenditions } from "./src/platform/uploads"
      import { PHOTO_SIZES } from "./src/modules/catalogue/rules"
      export const renditionsOf = (bytes) => Effect.runPromise(webpRenditions("photo", bytes, PHOTO_SIZES, "upload.unsupportedImage"))
    `
)

// ---- A detailed 4000×3000 picture, as a phone would send it (JPEG, quality 90) -----------------
const W = 4000
const H = 3000
let seed = 42
const random = () => {
  seed = (seed * 1664525 + 1013904223) >>> 0
  return seed / 2 ** 32
}
/** Random values on a coarse grid, smoothly enlarged to the picture's size: one octave of texture. */
const octave = async (cells) => {
  const gw = cells
  const gh = Math.round((cells * H) / W)
  const grid = Buffer.alloc(gw * gh * 3)
  for (let i = 0; i < grid.length; i++) grid[i] = Math.floor(random() * 256)
  return sharp(grid, { raw: { width: gw, height: gh, channels: 3 } })
    .resize(W, H, { kernel: "cubic" })
    .raw()
    .toBuffer()
}
const layers = await Promise.all([6, 24, 96, 384].map(octave))
const weights = [0.45, 0.3, 0.17, 0.08]
const pixels = Buffer.alloc(W * H * 3)
for (let i = 0; i < pixels.length; i++) {
  let v = 0
  for (let l = 0; l < layers.length; l++) v += layers[l][i] * weights[l]
  pixels[i] = Math.max(0, Math.min(255, Math.round(v + (random() - 0.5) * 12)))
}
const photo = await sharp(pixels, { raw: { width: W, height: H, channels: 3 } })
  .jpeg({ quality: 90 })
  .toBuffer()

// ---- Renditions --------------------------------------------------------------------------------
const runs = []
let renditions
for (let i = 0; i < 5; i++) {
  const started = performance.now()
  renditions = await renditionsOf(new Uint8Array(photo))
  runs.push(performance.now() - started)
}
runs.sort((a, b) => a - b)
const kb = (bytes) => Math.round((bytes / 1024) * 10) / 10
const result = {
  upload: { width: W, height: H, kb: kb(photo.length) },
  renditions: renditions.map((r) => ({ size: r.size, width: r.width, height: r.height, kb: kb(r.bytes.length) })),
  renditionsMedianMs: Math.round(runs[2])
}
console.log(JSON.stringify(result, null, 2))
// A card shows the 400 rendition, or the 800 one on a dense screen (a phone at twice its CSS pixels).
for (const card of result.renditions.filter((r) => r.size <= 800)) {
  const met = card.kb < 30
  console.log(`card image ${card.width}×${card.height} WebP: ${card.kb} KB — target < 30 KB: ${met ? "met" : "MISSED"}`)
  if (!met) process.exitCode = 1
}
