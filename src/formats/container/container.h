/* The container layer: what every archive driver (RARC, GAR, ZAR), every compression
 * wrapper (Yaz0, Yay0, LzS, LZ10/LZ11) and a folder mount share.
 *
 * A driver lists its members (nm_entry: a name, its folder, where its bytes are, stored
 * or compressed) and nm_archive_build turns the list into the tree: the archive's
 * folders, each a lazy directory whose first lookup probes its members' first bytes (a
 * probe, not a parse); a member recognised by content is a lazy directory holding its
 * own format's tree (nm_build_any, on the first lookup inside it) plus raw.bin, its
 * exact (decompressed) bytes; any other member is a plain file of those bytes.
 *
 * Compressed bytes are decompressed on first use into the tree's cache (bounded by
 * cache_size, decompressed again when evicted, pinned while a member's parse reads them):
 * nm_unpack_open makes a reader of them whose size comes from the stream's header. */
#ifndef NM_CONTAINER_H
#define NM_CONTAINER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "formats/driver.h"
#include "lib/reader.h"
#include "lib/tree.h"
#include "lib/view.h"

/* --- compression (unpack.c) -------------------------------------------------------- */

typedef enum nm_codec_id {
	NM_CODEC_NONE,      /* stored */
	NM_CODEC_YAZ0,
	NM_CODEC_YAY0,
	NM_CODEC_LZS,
	NM_CODEC_LZCX,      /* Nintendo LZ10 / LZ11: the type byte says which (after an
			     * "LZ77" tag, if any) */
	NM_CODEC_COUNT
} nm_codec_id;

/* "Yaz0", "LZ11"... for the stream starting with head (for LZ10/LZ11 the type byte
 * decides: head's first 8 bytes); NULL for NM_CODEC_NONE. */
const char *nm_codec_name(nm_codec_id codec, const uint8_t *head, size_t len);
/* The codec whose magic head starts with, or NM_CODEC_NONE. */
nm_codec_id nm_codec_probe(const uint8_t *head, size_t len);

/* A reader of the decompressed bytes of [off, off+len) of parent, compressed with codec;
 * its size is what the stream's header announces (read now: the first bytes only).
 * Reads decode on first use into t's cache: a read within the first NM_PROBE_BYTES
 * decodes just that prefix, one within the first NM_UNPACK_PREFIX bytes (an archive's
 * table of contents) a cached prefix, any other the whole stream, once. The reader is
 * closed with the tree; it has parent's depth plus one. name is used in messages. */
#define NM_UNPACK_PREFIX (64u << 10)
nm_status nm_unpack_open(nm_tree *t, nm_reader *parent, uint64_t off, uint64_t len,
			 nm_codec_id codec, const char *name, nm_reader **out, nm_error *err);

/* --- one member (member.c) --------------------------------------------------------- */

/* The members of one folder (of an archive or a folder mount), for finding a member's
 * neighbours. Freed with the tree. */
typedef struct nm_member_group nm_member_group;
nm_member_group *nm_member_group_new(nm_tree *t);

/* The node for a member whose exact bytes are r, named name (safe and unique) under
 * dir, in group g: a lazy directory (its format's tree and raw.bin, built on its first
 * lookup) if r's first bytes are a format nm_drivers recognise, else a file of r's
 * bytes. r must live as long as the tree and have its depth set; a member deeper than
 * max_depth shows error.txt instead of a tree. no_archive, when set, is why the member
 * may not be an archive (nm_driver.archive): if it is one, it is not opened, and its
 * directory holds no_archive's message as error.txt and raw.bin. NULL when out of
 * memory. */
nm_node *nm_member_node(nm_tree *t, nm_node *dir, const char *name, nm_reader *r,
			nm_member_group *g, const nm_error *no_archive);

/* A member its archive has already identified (every asset of a Tropical Freeze PAK is
 * an RFRM form): a lazy directory made without reading a byte or making a reader, so a
 * PAK of 50,000 assets mounts without 50,000 probes. On the first lookup inside it,
 * open makes its reader (adopted by the tree then, so it goes with the directory's
 * content) and build its tree (NULL: nm_build_any), then raw.bin, as for any member.
 * member is the archive's record of it, handed to both. */
typedef struct nm_member_kind {
	nm_status (*open)(nm_tree *t, void *ctx, const void *member, nm_reader **r,
			  nm_error *err);
	nm_status (*build)(nm_reader *r, nm_tree *t, nm_node *dir, void *ctx,
			   const void *member, nm_error *err);
	void *ctx;
} nm_member_kind;
/* k must live as long as the directory (in the tree's arena of the archive's build). */
nm_node *nm_member_known(nm_tree *t, nm_node *dir, const char *name, const nm_member_kind *k,
			 const void *member);

/* A directory holding error.txt with e's message (a member that cannot be read). */
nm_node *nm_member_error(nm_tree *t, nm_node *dir, const char *name, const nm_error *e);

/* The recognised member named name (compared without case) in the same folder as the
 * member r was built from, in an archive or a folder mount: its reader (owned by the
 * tree) and its directory's name (e.g. a Tropical Freeze model's GUID.txtr textures).
 * False when r is no member, or no such member is recognised. */
bool nm_member_sibling(nm_reader *r, const char *name, nm_reader **sibling,
		       const char **dirname);
/* The same for the first recognised member beside r whose name match() accepts. */
bool nm_member_sibling_where(nm_reader *r, bool (*match)(const char *name, void *ctx),
			     void *ctx, nm_reader **sibling, const char **dirname);

/* What a model takes along from around it (a J3D model's animations): each other member
 * of the archive r is a member of, in any of its folders whether listed yet or not, or
 * each other file of r's folder in a folder mount. fn gets its path there
 * ("bck/wait.bck"; in a folder mount its name) and a reader of its bytes, owned by the
 * tree; returning false stops the walk. Readers of compressed members decompress only
 * what is read. NM_OK without a call when r is no member; fails only when out of memory
 * (a member that cannot be opened is skipped). */
typedef bool (*nm_neighbour_fn)(void *ctx, const char *path, nm_reader *r);
nm_status nm_member_neighbours(nm_tree *t, nm_reader *r, nm_neighbour_fn fn, void *ctx,
			       nm_error *err);
/* An archive widens its groups' neighbourhood to the whole archive: each(t, scope, self,
 * fn, ctx, err) walks its members but self's. */
typedef nm_status (*nm_scope_each_fn)(nm_tree *t, void *scope, nm_reader *self,
				      nm_neighbour_fn fn, void *ctx, nm_error *err);
void nm_member_group_scope(nm_member_group *g, nm_scope_each_fn each, void *scope);

/* --- a model's animations (pairing.c) --------------------------------------------- */

/* Which animation files around a model (nm_member_neighbours) it takes, by one rule for
 * every format (doc/j3danim.md, "With their model"): those it fits best among the
 * models of its format there, an exact fit before a loose one, then the model whose
 * name (without extension) is the longest prefix of the animation's, without case;
 * models equal on both all take it. Only what the rules open is read, when the
 * model's tree is built. */
typedef enum nm_fit { NM_NO_FIT, NM_LOOSE_FIT, NM_EXACT_FIT } nm_fit;
typedef struct nm_pairing_rules {
	bool (*is_model)(const uint8_t *head, size_t len);      /* another model */
	bool (*is_animation)(const uint8_t *head, size_t len);
	/* Another model's tables (in t's arena), NULL when they do not parse. */
	void *(*open_model)(nm_tree *t, nm_reader *r);
	/* An animation's tables, or NULL with err set; close_animation frees one (the
	 * tree frees those taken). */
	void *(*open_animation)(nm_tree *t, nm_reader *r, nm_error *err);
	void (*close_animation)(void *anim);
	/* How anim fits model; when not at all, *why says why. */
	nm_fit (*fit)(void *ctx, const void *model, const void *anim, const char **why);
	void *ctx;
} nm_pairing_rules;

typedef struct nm_paired {
	const char *path;          /* in its archive or folder */
	const char *stem;          /* its name without folders or extension */
	nm_reader *r;
	void *anim;                /* what open_animation made */
} nm_paired;

typedef struct nm_pairs {
	nm_paired *taken;
	size_t n;
	char **left;               /* "path: why" of each animation beside the model (its
				    * folder), or fitting it, that it does not take */
	size_t nleft;
	size_t others;             /* the animations around it for other models */
} nm_pairs;

/* Fills out (lists in t's arena) for the model whose reader is r and whose tables are
 * model. A loose model has nothing around it. NM_E_NOMEM only. */
nm_status nm_pair_animations(nm_tree *t, nm_reader *r, const void *model,
			     const nm_pairing_rules *rules, nm_pairs *out, nm_error *err);
/* The files taken, grouped by name (the stem: Wait.bck and Wait.btk are one), in the
 * order each name was first taken: one glTF animation per group. In t's arena. */
typedef struct nm_pair_group {
	size_t *files;             /* indices into taken */
	size_t n;
} nm_pair_group;
nm_status nm_pairs_by_name(nm_tree *t, const nm_pairs *p, nm_pair_group **out, size_t *n);
/* info.txt's lines for them: animations, animation, animation_left_out,
 * animations_for_other_models. */
void nm_pairs_info(nm_out *o, const nm_pairs *p);
/* "x.arc:dir/Name.ext" -> "Name", in t's arena (NULL: out of memory). */
const char *nm_path_stem(nm_tree *t, const char *path);

/* --- an archive's table of contents (archive.c) ------------------------------------ */

typedef struct nm_entry {
	const char *name;       /* raw bytes from the archive (made safe here) */
	size_t name_len;
	int64_t folder;         /* index of its folder in the list, -1: the archive's root */
	bool is_folder;
	uint64_t off, len;      /* a member's stored bytes in the archive's reader */
	nm_codec_id codec;      /* how they are compressed (NM_CODEC_NONE: stored) */
	const char *error;      /* set: shown as a directory holding this as error.txt */
} nm_entry;

/* A list of entries as a driver reads its table of contents (entries.c). Failure to
 * grow is sticky: check l->failed once at the end. Names are not copied: they point
 * into the driver's table, which must outlive nm_archive_build. */
typedef struct nm_entry_list {
	nm_entry *e;
	size_t n, cap;
	size_t *slots;          /* folders by (folder, name): index + 1, 0 empty */
	size_t nslots, nfolders;
	bool failed;
} nm_entry_list;

/* A new zeroed entry at the end (folder -1), or NULL. */
nm_entry *nm_entry_add(nm_entry_list *l);
/* The folder named name in folder parent (-1: the root), added when missing; -2 when
 * out of memory. */
int64_t nm_entry_folder(nm_entry_list *l, int64_t parent, const char *name, size_t len);
/* The folders of a '/'-separated path (all parts but the last, empty parts skipped):
 * returns the last part's folder and sets *base, *base_len to the last part. */
int64_t nm_entry_path(nm_entry_list *l, const char *path, size_t len, const char **base,
		      size_t *base_len);
void nm_entry_list_free(nm_entry_list *l);

/* The NUL-terminated name at off of the string table [start, start+size) of v (names in
 * RARC and GAR tables), or NULL when off is past the table or the name does not end
 * inside it. */
const char *nm_table_string(const nm_view *v, size_t start, size_t size, uint64_t off,
			    size_t *len);

/* An archive's tree: info.txt from info (the format's own lines, then members, folders,
 * compressed_members; info is emptied) and nm_archive_build of the list. */
nm_status nm_archive_tree(nm_tree *t, nm_node *root, nm_reader *r, nm_out *info,
			  const nm_entry *e, size_t n, nm_error *err);

/* Build entries[0..n) under root (which already holds the archive's info.txt): the
 * root's own members are probed now, every folder is a lazy directory. Names are made
 * safe and unique (a member named like a name already there gets ~2). A folder comes
 * before its members (folder < index), so the list has no cycles; a list that breaks
 * this is refused with NM_E_FORMAT. entries and their names are copied into the tree. */
nm_status nm_archive_build(nm_tree *t, nm_node *root, nm_reader *r, const nm_entry *entries,
			   size_t n, nm_error *err);

/* --- an archive laid out again (layout.c) ------------------------------------------ */

/* One member's stored bytes in its archive's reader, as the archive's table lists it. */
typedef struct nm_layout_slot {
	uint64_t off, len;
} nm_layout_slot;

/* A repack's tables: n slots and, for nm_layout_members, each one's new offset and
 * length (len = off + n), from nm_alloc under r's options (chunk names the table in a
 * refusal). NM_OK, or err's code with nothing left to free. */
typedef struct nm_layout {
	nm_layout_slot *slots;
	uint64_t *off, *len;
} nm_layout;
nm_status nm_layout_alloc(nm_layout *l, nm_reader *r, size_t n, const char *chunk,
			  nm_error *err);
void nm_layout_free(nm_layout *l);

/* The archive r with the changes c[0..nc) of an nm_repack_fn (lib/reader.h) into out,
 * for the driver to rewrite its tables in: the bytes before the first member as they
 * are, then each member in the file's order, its new bytes if a change replaces it
 * (a change of another length must cover exactly one slot's bytes), with what lay
 * between it and the next kept: verbatim after an unchanged member; after a changed
 * one kept unless it is all zeros (padding) and align is more than 1, then zeros until
 * the next member's new offset has the remainder modulo align its old one had, so every
 * member keeps the alignment it had (the format's, whatever it is). Changes of the same length are
 * patched in place. new_off[i], new_len[i]: where slot i's member is now (a member of
 * no bytes: where its offset fell). Members listed twice over the same bytes move
 * together; members overlapping otherwise are refused (NM_E_FORMAT naming r), as is a
 * change of length over bytes no slot is. r is loaded whole (nm_reader_load's limit). */
nm_status nm_layout_members(nm_reader *r, const nm_layout_slot *slots, size_t n,
			    uint64_t align, const nm_member_change *c, size_t nc, nm_out *out,
			    uint64_t *new_off, uint64_t *new_len, nm_error *err);

/* --- folder mounts (folder.c) ------------------------------------------------------ */

/* The tree of a folder: its files and folders, recursively, each folder populated on
 * its first lookup. A recognised file is a directory with its tree and raw.bin, any
 * other regular file passes through with its exact bytes; symlinks leading outside path
 * are not followed, nor those making a cycle; other kinds of files are left out. */
nm_status nm_folder_build(const char *path, nm_tree *t, nm_error *err);
/* A file of the folder shown with other bytes than it has on disk (an edited member's
 * new bytes: src/edit/folder.h); rel is its path below the folder. */
typedef struct nm_folder_file {
	const char *rel;
	const uint8_t *bytes;
	size_t len;
} nm_folder_file;
/* The same, with files[0..n) shown with their given bytes (copied into the tree). */
nm_status nm_folder_build_with(const char *path, const nm_folder_file *files, size_t n,
			       nm_tree *t, nm_error *err);
/* A new tree (a copy of opt) of that folder, as nm_open_model opens a folder. */
nm_status nm_folder_open_with(const char *path, const nm_options *opt,
			      const nm_folder_file *files, size_t n, nm_tree **out,
			      nm_error *err);

#endif
