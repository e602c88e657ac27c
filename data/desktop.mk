# Opening a model from a file manager (README "From a file manager"): the file types
# (shared-mime-info), the desktop entry that mounts and opens them, the thumbnailer, and
# the two scripts they run. The .in files get the install paths at make time, as the GNU
# Coding Standards ask (a prefix may be changed at `make install`).
bin_SCRIPTS = nmodel-open nmodel-thumbnail
mimedir = $(datadir)/mime/packages
dist_mime_DATA = data/nmodelfs.xml
desktopdir = $(datadir)/applications
desktop_DATA = data/nmodelfs.desktop
thumbnailerdir = $(datadir)/thumbnailers
thumbnailer_DATA = data/nmodelfs.thumbnailer
DESKTOP_IN = src/desktop/nmodel-open.in src/desktop/nmodel-thumbnail.in \
	data/nmodelfs.desktop.in data/nmodelfs.thumbnailer.in
EXTRA_DIST += $(DESKTOP_IN) data/desktop.mk
dist_man_MANS += man/nmodel-open.1 man/nmodel-thumbnail.1
CLEANFILES = $(bin_SCRIPTS) $(desktop_DATA) $(thumbnailer_DATA) data/paths \
	tests/desktop-thumbnail.png

# The install paths the generated files were made with, remade (and they with it) when a
# `make install prefix=...` names others, so that they point where they are installed
# (tests/desktop.sh installs into a temporary prefix so).
data/paths: desktop-paths-check
	@mkdir -p data && echo '$(bindir) $(sbindir)' > $@.new && \
		if cmp -s $@.new $@; then rm -f $@.new; else mv $@.new $@; fi
desktop-paths-check:
.PHONY: desktop-paths-check

desktop_subst = sed -e 's|@bindir[@]|$(bindir)|g' -e 's|@sbindir[@]|$(sbindir)|g'
nmodel-open: $(srcdir)/src/desktop/nmodel-open.in data/paths
	$(AM_V_GEN)$(desktop_subst) $(srcdir)/src/desktop/nmodel-open.in > $@.tmp && \
		chmod +x $@.tmp && mv $@.tmp $@
nmodel-thumbnail: $(srcdir)/src/desktop/nmodel-thumbnail.in data/paths
	$(AM_V_GEN)$(desktop_subst) $(srcdir)/src/desktop/nmodel-thumbnail.in > $@.tmp && \
		chmod +x $@.tmp && mv $@.tmp $@
data/nmodelfs.desktop: $(srcdir)/data/nmodelfs.desktop.in data/paths
	$(AM_V_GEN)$(desktop_subst) $(srcdir)/data/nmodelfs.desktop.in > $@.tmp && mv $@.tmp $@
data/nmodelfs.thumbnailer: $(srcdir)/data/nmodelfs.thumbnailer.in data/paths
	$(AM_V_GEN)$(desktop_subst) $(srcdir)/data/nmodelfs.thumbnailer.in > $@.tmp && mv $@.tmp $@

# The caches that file managers read: brought up to date where the files were installed,
# when the tools are here, and not when staging into DESTDIR (a package's own triggers
# run them on the target). A prefix whose mime/packages is left empty by the uninstall
# held only ours: the database made from it goes too, and so does the desktop cache of
# an applications folder left without entries.
install-data-hook:
	@if test -z "$(DESTDIR)"; then \
		if command -v update-mime-database >/dev/null 2>&1; then \
			echo " update-mime-database $(datadir)/mime"; \
			update-mime-database "$(datadir)/mime"; fi; \
		if command -v update-desktop-database >/dev/null 2>&1; then \
			echo " update-desktop-database $(desktopdir)"; \
			update-desktop-database -q "$(desktopdir)"; fi; \
	fi
uninstall-hook:
	@if test -z "$(DESTDIR)"; then \
		if test -d "$(mimedir)" && test -z "`ls -A "$(mimedir)"`"; then \
			echo " rm -rf $(datadir)/mime"; rm -rf "$(datadir)/mime"; \
		elif test -d "$(mimedir)" && command -v update-mime-database >/dev/null 2>&1; then \
			echo " update-mime-database $(datadir)/mime"; \
			update-mime-database "$(datadir)/mime"; fi; \
		if test -d "$(desktopdir)" && test -z "`ls "$(desktopdir)" | grep '\.desktop$$'`"; then \
			rm -f "$(desktopdir)/mimeinfo.cache"; \
		elif test -d "$(desktopdir)" && command -v update-desktop-database >/dev/null 2>&1; then \
			echo " update-desktop-database $(desktopdir)"; \
			update-desktop-database -q "$(desktopdir)"; fi; \
	fi
