/* A PAK's assets as members of the container layer (nm_member_known): each is a lazy
 * directory named NAME.type, holding the asset's own tree (a model with its META, a
 * texture, or any other form's chunks) and raw.bin, made on its first lookup.
 *
 * raw.bin is the asset's bytes; for a model with a META entry they are followed by a
 * "META" chunk descriptor and the blob (the layout gpu.c accepts), so a model copied
 * out of the mount opens on its own with its buffers. The asset's reader joins the two:
 * the PAK's bytes, then the descriptor and blob from the META chunk already in memory. */
#include <stdio.h>
#include <string.h>
#include "formats/container/container.h"
#include "formats/rfrm/rfrm.h"

/* Bytes appended after the asset: the META descriptor and blob, or 0. */
static uint64_t meta_tail_len(const rfrm_pak_entry *e)
{
	return e->has_meta && e->meta_len && rfrm_is_model_type(e->type)
		       ? RFRM_CHUNK_LEN + e->meta_len : 0;
}

struct asset {
	const rfrm_pak *p;
	const rfrm_pak_entry *e;
	uint8_t desc[RFRM_CHUNK_LEN]; /* "META", blob size, version 1, 0 */
};

static void put_be(uint8_t *p, uint64_t v, int n)
{
	for (int i = n - 1; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

static nm_status asset_read(void *ctx, uint64_t off, void *buf, size_t len, const char *chunk,
			    nm_error *err)
{
	const struct asset *a = ctx;
	const rfrm_pak_entry *e = a->e;
	uint8_t *dst = buf;
	if (off < e->size) {
		size_t n = (size_t)(len < e->size - off ? len : e->size - off);
		nm_status s = nm_reader_read(a->p->r, e->off + off, dst, n, chunk, err);
		if (s != NM_OK)
			return s;
		dst += n, off += n, len -= n;
	}
	/* The rest lies in the tail: the reader's size keeps it inside. */
	for (off -= e->size; len > 0; len--, off++)
		*dst++ = off < RFRM_CHUNK_LEN ? a->desc[off]
					      : a->p->meta_data[e->meta + (off - RFRM_CHUNK_LEN)];
	return NM_OK;
}

static nm_status asset_pin(void *ctx, nm_error *err)
{
	const struct asset *a = ctx;
	return nm_reader_pin(a->p->r, err);
}

static void asset_unpin(void *ctx)
{
	const struct asset *a = ctx;
	nm_reader_unpin(a->p->r);
}

static const nm_source_ops asset_ops = { asset_read, asset_pin, asset_unpin, NULL };

/* Written back (src/edit): the asset's stored bytes are its new bytes without the META
 * tail, which lives in the PAK's META chunk and must be as it was, as must the length
 * of an asset that has one. */
static nm_status asset_encode(void *ctx, const uint8_t *plain, size_t len, nm_out *out,
			      nm_error *err)
{
	const struct asset *a = ctx;
	uint64_t tail = meta_tail_len(a->e);
	const uint8_t *blob = a->p->meta_data + a->e->meta;
	if (tail && (len < tail || memcmp(plain + len - tail, a->desc, RFRM_CHUNK_LEN) != 0 ||
		     memcmp(plain + len - tail + RFRM_CHUNK_LEN, blob, (size_t)tail -
			    RFRM_CHUNK_LEN) != 0))
		return nm_fail(err, NM_E_UNSUPPORTED, nm_reader_name(a->p->r), a->e->dir,
			       NM_NO_OFFSET, "the META blob after the asset's bytes is the "
			       "PAK's META entry: apply does not write it");
	if (tail && len != a->e->size + tail)
		return nm_fail(err, NM_E_UNSUPPORTED, nm_reader_name(a->p->r), a->e->dir,
			       NM_NO_OFFSET, "the asset would change length, and the PAK's META "
			       "blob for it says where its GPU buffers lie: apply does not rewrite "
			       "META blobs yet");
	nm_out_write(out, plain, len - (size_t)tail);
	return nm_out_status(out);
}

/* A model whose META blob follows it (the PAK's META entry) changing length: the blob
 * says where its GPU buffers lie and how long they are, and apply does not write it
 * yet, so the change is refused (the asset's reader would otherwise take it whole). */
static nm_status asset_resized(void *ctx, nm_reader *r, const nm_member_change *c, size_t nc,
			       nm_out *out, nm_error *err)
{
	const struct asset *a = ctx;
	(void)c;
	(void)nc;
	(void)out;
	return nm_fail(err, NM_E_UNSUPPORTED, nm_reader_name(r), a->e->dir, NM_NO_OFFSET,
		       "its bytes would change length, and the PAK's META blob for it says "
		       "where its GPU buffers lie: apply does not rewrite META blobs yet");
}

static nm_status open_asset(nm_tree *t, void *ctx, const void *member, nm_reader **out,
			    nm_error *err)
{
	const rfrm_pak *p = ctx;
	const rfrm_pak_entry *e = member;
	char name[512];
	snprintf(name, sizeof name, "%s:%s", nm_reader_name(p->r), e->dir);
	/* In the directory's content: freed with it, like the reader. */
	struct asset *a = nm_tree_alloc(t, sizeof *a);
	if (!a)
		return nm_fail(err, NM_E_NOMEM, name, NULL, NM_NO_OFFSET, "out of memory");
	*a = (struct asset){ .p = p, .e = e };
	uint64_t tail = meta_tail_len(e);
	if (tail) {
		memcpy(a->desc, "META", 4);
		put_be(a->desc + 4, e->meta_len, 8);
		put_be(a->desc + 12, 1, 4);
		put_be(a->desc + 16, 0, 8);
	}
	nm_status s = nm_reader_new_source(name, e->size + tail, &asset_ops, a, out, err);
	if (s != NM_OK)
		return s;
	nm_reader_set_origin(*out, &(nm_reader_origin){ .parent = p->r, .off = e->off,
							.len = e->size, .encode = asset_encode,
							.ctx = a });
	if (tail)
		nm_reader_set_repack(*out, asset_resized, a);
	nm_reader_set_depth(*out, nm_reader_depth(p->r) + 1);
	if (nm_tree_adopt_reader(t, *out) != NM_OK)
		return nm_fail(err, NM_E_NOMEM, name, NULL, NM_NO_OFFSET, "out of memory");
	return NM_OK;
}

/* The asset's tree, read from its own bytes (a window without the META tail, which the
 * tree gets from the PAK's table instead, with the PAK for the textures it names). */
static nm_status build_asset(nm_reader *r, nm_tree *t, nm_node *dir, void *ctx,
			     const void *member, nm_error *err)
{
	const rfrm_pak *p = ctx;
	const rfrm_pak_entry *e = member;
	nm_reader *w = r;
	if (meta_tail_len(e)) {
		/* A window of the PAK itself, so that a model whose GPU chunk changes length
		 * goes to the PAK, which writes its META blob again (rfrm_pak_repack). */
		nm_status s = nm_reader_new_window(p->r, nm_reader_name(r), e->off, e->size, &w,
						   err);
		if (s != NM_OK)
			return s;
		nm_reader_set_depth(w, nm_reader_depth(r));
		if (nm_tree_adopt_reader(t, w) != NM_OK)
			return nm_fail(err, NM_E_NOMEM, nm_reader_name(r), NULL, NM_NO_OFFSET,
				       "out of memory");
	}
	const uint8_t *meta = e->has_meta && e->meta_len ? p->meta_data + e->meta : NULL;
	return rfrm_build_asset(w, t, dir, meta, e->meta_len, p, err);
}

nm_member_kind *rfrm_pak_asset_kind(nm_tree *t, const rfrm_pak *p)
{
	nm_member_kind *k = nm_tree_alloc(t, sizeof *k);
	if (k)
		*k = (nm_member_kind){ open_asset, build_asset, (void *)p };
	return k;
}
