# The page's key checks in headless Firefox (docs/page.md, "Tests"): Debian's
# firefox-esr driven through WebDriver BiDi by npm's puppeteer-core, with
# node's built-in test runner; part of "make test" (about a minute).
#   make test-firefox   build the page and the CLI, then run the checks
# Without firefox-esr or puppeteer-core it says so and skips, unless
# IMAS_REQUIRE_TOOLS=1 (CI), where it fails.
NODE ?= node

.PHONY: test-firefox
TEST_DEPS += test-firefox

test-firefox: page cli
	IMAS_PAGE=$(CURDIR)/public/imas.html IMAS_BIN=$(CURDIR)/bin/imas \
	  $(NODE) --test --test-reporter=spec internal/pagetest/firefox/page.test.mjs
