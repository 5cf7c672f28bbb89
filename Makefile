# make install [PREFIX=/usr/local] [DESTDIR=/staging]: the C API and the launcher under $(DESTDIR)$(PREFIX),
# by the same code as `./portals install --prefix DIR` (which this runs; it builds the launcher if needed).
# The installed tree finds its files from its own place, so a tree staged under DESTDIR works once moved.
PREFIX ?= /usr/local
DESTDIR ?=
PORTALS ?= $(CURDIR)/portals

.PHONY: install
install:
	"$(PORTALS)" install --prefix "$(DESTDIR)$(PREFIX)"
