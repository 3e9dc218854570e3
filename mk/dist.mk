# Release archives (README "Install"):
#   make dist        dist/imas-VERSION-OS-ARCH.tar.gz (.zip for Windows) for
#                    DIST_PLATFORMS, each binary with the page embedded; the
#                    single-file page dist/imas.html; the edge worker bundle
#                    dist/imas-worker-VERSION.tar.gz; dist/SHA256SUMS
#   make test-dist   make dist, then run the linux/amd64 binary: it must print
#                    its commit and serve the page; and the worker bundle under
#                    workerd: its /healthz must name the commit too (not part
#                    of "make test": it builds five binaries)
# dist/ is a folder too, hence .PHONY: without it "make dist" would do
# nothing once dist/ exists.
DIST_PLATFORMS := linux/amd64 linux/arm64 windows/amd64 darwin/arm64
# Each is computed once (":="), so every archive of one "make dist" carries
# the same stamp; set them on the command line to override.
ifndef VERSION
VERSION := $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
endif
# The commit is marked -dirty when the tracked files differ from it, as the
# version is (git describe --dirty) and as Go's own VCS stamp would be.
ifndef COMMIT
COMMIT := $(shell c=$$(git rev-parse HEAD 2>/dev/null) || { echo unknown; exit; }; \
  git diff --quiet HEAD -- 2>/dev/null && echo $$c || echo $$c-dirty)
endif
ifndef BUILD_DATE
BUILD_DATE := $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
endif
# GOFLAGS has -buildvcs=false (no .git in some build boxes), so the commit and
# the date are stamped here, into the binaries and the worker bundle; "imas
# version" and /healthz print them (internal/driver).
DIST_LDFLAGS := -s -w -X imas/core.Version=$(VERSION) -X imas/internal/driver.commit=$(COMMIT) -X imas/internal/driver.buildDate=$(BUILD_DATE)

.PHONY: dist test-dist
dist: page
	$(MAKE) worker WORKER_LDFLAGS='$(DIST_LDFLAGS)'
	rm -rf dist/imas-* dist/imas.html dist/SHA256SUMS
	set -e; for p in $(DIST_PLATFORMS); do \
	  os=$${p%/*}; arch=$${p#*/}; name=imas-$(VERSION)-$$os-$$arch; exe=imas; \
	  [ $$os = windows ] && exe=imas.exe; \
	  simd=; [ $$arch = amd64 ] && simd=GOEXPERIMENT=simd; \
	  echo ">> $$name"; \
	  env $$simd CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -ldflags '$(DIST_LDFLAGS)' -o dist/$$name/$$exe ./cmd/imas; \
	  cp README.md dist/$$name/; \
	  if [ $$os = windows ]; then (cd dist && zip -qr $$name.zip $$name); \
	  else tar -C dist -czf dist/$$name.tar.gz $$name; fi; \
	  rm -rf dist/$$name; \
	done
	cp public/imas.html dist/imas.html
	tar -C dist -czf dist/imas-worker-$(VERSION).tar.gz worker
	cd dist && sha256sum imas-*.tar.gz imas-*.zip imas.html > SHA256SUMS
	@cat dist/SHA256SUMS

test-dist: dist
	rm -rf dist/check && mkdir -p dist/check
	tar -C dist/check -xzf dist/imas-$(VERSION)-linux-amd64.tar.gz
	IMAS_DIST_BINARY=$(CURDIR)/dist/check/imas-$(VERSION)-linux-amd64/imas IMAS_DIST_COMMIT=$(COMMIT) \
	  $(GO) test -count=1 -run '^TestReleaseBinary$$' ./cmd/imas
	tar -C dist/check -xzf dist/imas-worker-$(VERSION).tar.gz
	IMAS_WORKER_DIR=$(CURDIR)/dist/check/worker IMAS_WORKER_COMMIT=$(COMMIT) IMAS_REQUIRE_TOOLS=1 \
	  $(GO) test -count=1 -run '^TestWorkerd$$' ./wasm/edge
	rm -rf dist/check
