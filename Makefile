# `make start` and `make test` work on a fresh machine with only node (any version), npm and make.
SHELL := /bin/bash
NODE_DIR := $(shell bin/ensure-node)
export PATH := $(NODE_DIR):$(PATH)

SOURCES := $(shell find src ui cli migrations bin -type f 2>/dev/null) package-lock.json

.PHONY: start test test-unit build typecheck format bench install clean lint-i18n screenshots

start: dist/.built
	node dist/server.js

install: node_modules/.installed

node_modules/.installed: package.json package-lock.json
	@# npm ci refuses the lock npm 11 writes (it omits other platforms' optional packages); install honours it.
	npm install --no-audit --no-fund --loglevel=error
	@touch $@

build: dist/.built

dist/.built: node_modules/.installed $(SOURCES)
	node bin/build.mjs
	@touch $@

typecheck: node_modules/.installed
	npx tsc --noEmit -p tsconfig.json

# Rewrites the tree in the one style (Biome, biome.json); `make test` fails on any file left unformatted.
format: node_modules/.installed
	npx biome format --write .

# The three vitest projects in order (docs/testing.md); make stops at the first that fails.
test: dist/.built
	npx biome format .
	@# The typecheck (one core) runs beside the unit project; both must pass before the next project.
	npx tsc --noEmit -p tsconfig.json & typecheck=$$!; npx vitest run --project unit; unit=$$?; wait $$typecheck && exit $$unit
	npx vitest run --project integration
	npx vitest run --project browser

# The pure files alone (threads, under a minute): the loop to run while writing a rule.
test-unit: node_modules/.installed
	npx vitest run --project unit

bench: dist/.built
	node test/bench/run.mjs && node test/bench/catalogue.mjs && node test/bench/bookings.mjs && node test/bench/slots.mjs && node test/bench/places.mjs && node test/bench/photos.mjs
	@# Largest Contentful Paint of /services with 20 photo cards (issue 16's target: 1.5 s)
	LCP_LIMIT_MS=1500 npx vitest run test/browser/photos.test.ts -t 'Largest Contentful Paint'

# PNGs of the main pages (docs/screenshots/, shown in the README) from the built server and the demo data.
screenshots: dist/.built
	node bin/screenshots.mjs

clean:
	rm -rf dist var/test-*
