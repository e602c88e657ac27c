/* model.glb's animations (gltf_anim.h): their layout from counts, their JSON and their
 * bytes. Accessors come after the model's own (time accessors first, then one output
 * per channel kept, in channel order); bufferView k + nused_images is accessor k as
 * for the model's; the bytes follow the images in BIN. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "export/gltf_plan.h"
#include "export/text.h"
#include "lib/keyframes.h"
#include "lib/alloc.h"

#define FLOAT 5126
#define UBYTE 5121

unsigned nm_gltf_path_components(enum nm_gltf_path path)
{
	static const unsigned n[NM_GLTF_NPATHS] = { 3, 4, 3, 4, 2, 1, 2, 1 };
	return path < NM_GLTF_NPATHS ? n[path] : 0;
}

float nm_gltf_anim_fps(const nm_gltf_animation *a)
{
	return a->fps > 0 && isfinite(a->fps) ? a->fps : 30.0f;
}

void nm_gltf_uv_transform(const float s[2], float r, const float t[2], const float c[2],
			  bool flip_v, float offset[2], float *rotation, float scale[2])
{
	/* The game's matrix M(x) = A x + b, A = S * R(r), b = C + T - A C. With the flip
	 * F(u, v) = (u, 1 - v) = D x + e, the glb's matrix is F M F: linear part
	 * D A D = S * R(-r), translation D (A e + b) + e. glTF's linear part is
	 * R(rotation) * S(scale): equal to S * R(+-r) when the two commute. */
	double cr = cos(r), sr = sin(r);
	double a[2][2] = { { s[0] * cr, -s[0] * sr }, { s[1] * sr, s[1] * cr } };
	double b[2];
	for (int i = 0; i < 2; i++)
		b[i] = c[i] + t[i] - (a[i][0] * c[0] + a[i][1] * c[1]);
	if (flip_v) {
		offset[0] = nm_float_sat(a[0][1] + b[0]);
		offset[1] = nm_float_sat(1 - (a[1][1] + b[1]));
	} else {
		offset[0] = nm_float_sat(b[0]);
		offset[1] = nm_float_sat(b[1]);
	}
	*rotation = flip_v ? -r : r;
	scale[0] = s[0];
	scale[1] = s[1];
}

static bool node_path(enum nm_gltf_path path)
{
	return path <= NM_GLTF_SCALE || path == NM_GLTF_VISIBLE;
}

/* Bytes of a channel's output (unsigned bytes padded to 4). */
static uint64_t output_bytes(const nm_gltf_channel *ch)
{
	if (ch->path == NM_GLTF_VISIBLE)
		return ((uint64_t)ch->frames + 3) & ~(uint64_t)3;
	return (uint64_t)ch->frames * 4 * nm_gltf_path_components(ch->path);
}

/* The node or material a channel targets, -1 when it cannot be written. */
static int64_t target(const nm_gltf_model *m, const nm_gltf_plan *p, const nm_gltf_channel *ch)
{
	if (ch->path >= NM_GLTF_NPATHS || ch->frames == 0)
		return -1;
	if (node_path(ch->path)) {
		switch (ch->node_kind) {
		case NM_GLTF_NODE_JOINT:
			return ch->index < m->njoints ? (int64_t)ch->index : -1;
		case NM_GLTF_NODE_HELPER:
			return ch->index < m->njoints ? p->helper_node[ch->index] : -1;
		case NM_GLTF_NODE_GROUP:
			return ch->index < m->mesh->ngroups && p->g[ch->index].own
				       ? (int64_t)(p->first_mesh_node + (size_t)p->g[ch->index].mesh)
				       : -1;
		default:
			return -1;
		}
	}
	if (ch->index >= m->nmaterials)
		return -1;
	const nm_gltf_material *mat = &m->materials[ch->index];
	if (ch->path != NM_GLTF_BASE_COLOR &&
	    !(nm_gltf_image_ok(m, mat) && p->image_of[mat->image] != SIZE_MAX))
		return -1;
	return ch->index;
}

void nm_gltf_anim_plan_free(nm_gltf_plan *p)
{
	free(p->anim_target);
	free(p->anim_input);
	free(p->in_frames);
	free(p->in_fps);
	free(p->node_visibility);
	free(p->material_uv);
	p->anim_target = NULL;
	p->anim_input = p->in_frames = NULL;
	p->in_fps = NULL;
	p->node_visibility = p->material_uv = NULL;
}

nm_status nm_gltf_anim_plan(const nm_gltf_model *m, const nm_options *opt, nm_gltf_plan *p,
			    nm_error *err)
{
	const nm_gltf_anim *a = m->anim;
	p->anim_bin_at = p->bin_len;
	if (!a || !a->nanims)
		return NM_OK;
	size_t total = 0;
	for (size_t k = 0; k < a->nanims; k++) {
		if (a->anims[k].nchannels > SIZE_MAX / 16 - total)
			return nm_fail(err, NM_E_LIMIT, "model.glb", "animations", NM_NO_OFFSET,
				       "too many animation channels");
		total += a->anims[k].nchannels;
	}
	const char *what = "animations";
	if (!(p->anim_target = nm_alloc(opt, total + 1, sizeof *p->anim_target, err,
					"model.glb", what, NM_NO_OFFSET)) ||
	    !(p->anim_input = nm_alloc(opt, total + 1, sizeof *p->anim_input, err, "model.glb",
				       what, NM_NO_OFFSET)) ||
	    !(p->in_frames = nm_alloc(opt, total + 1, sizeof *p->in_frames, err, "model.glb",
				      what, NM_NO_OFFSET)) ||
	    !(p->in_fps = nm_alloc(opt, total + 1, sizeof *p->in_fps, err, "model.glb", what,
				   NM_NO_OFFSET)) ||
	    !(p->node_visibility = nm_alloc(opt, p->nnodes + 1, sizeof *p->node_visibility,
					    err, "model.glb", what, NM_NO_OFFSET)) ||
	    !(p->material_uv = nm_alloc(opt, m->nmaterials + 1, sizeof *p->material_uv, err,
					"model.glb", what, NM_NO_OFFSET)))
		return err->code;
	memset(p->node_visibility, 0, (p->nnodes + 1) * sizeof *p->node_visibility);
	memset(p->material_uv, 0, (m->nmaterials + 1) * sizeof *p->material_uv);
	uint64_t in_bytes = 0, out_bytes = 0;
	size_t c = 0, kept = 0;
	for (size_t k = 0; k < a->nanims; k++) {
		float fps = nm_gltf_anim_fps(&a->anims[k]);
		for (size_t i = 0; i < a->anims[k].nchannels; i++, c++) {
			const nm_gltf_channel *ch = &a->anims[k].channels[i];
			int64_t tg = p->anim_target[c] = target(m, p, ch);
			if (tg < 0)
				continue;
			kept++;
			out_bytes += output_bytes(ch);
			/* Channels of one length and rate share their times. */
			size_t in = 0;
			while (in < p->ninputs &&
			       !(p->in_frames[in] == ch->frames && p->in_fps[in] == fps))
				in++;
			if (in == p->ninputs) {
				p->in_frames[in] = ch->frames;
				p->in_fps[in] = fps;
				p->ninputs++;
				in_bytes += 4 * (uint64_t)ch->frames;
			}
			p->anim_input[c] = (uint32_t)in;
			if (ch->path == NM_GLTF_VISIBLE) {
				p->node_visibility[tg] = true;
				p->uses_visibility = true;
			}
			if (ch->path >= NM_GLTF_UV_OFFSET && ch->path <= NM_GLTF_UV_SCALE) {
				p->material_uv[tg] = true;
				p->uses_uv = true;
			}
			p->uses_pointer |= !(ch->path <= NM_GLTF_SCALE);
		}
	}
	p->nanim_channels = total;
	p->nanim_accessors = kept ? p->ninputs + kept : 0;
	p->bin_len += in_bytes + out_bytes;
	return NM_OK;
}

/* Why a channel has no target, as one of the reasons below. */
enum { NO_FRAMES = 1, NO_TEXTURE = 2, NO_MATERIAL = 4, NO_NODE = 8, NO_CHANNEL = 16 };

static unsigned why_left_out(const nm_gltf_channel *ch)
{
	if (ch->frames == 0)
		return NO_FRAMES;
	if (ch->path >= NM_GLTF_UV_OFFSET && ch->path <= NM_GLTF_UV_SCALE)
		return NO_TEXTURE;
	return ch->path == NM_GLTF_BASE_COLOR ? NO_MATERIAL : NO_NODE;
}

void nm_gltf_anim_account(const nm_gltf_model *m, const nm_gltf_plan *p, nm_out *o)
{
	static const char *const reasons[] = {
		"it has no frames",
		"its texture transforms are on materials whose base-colour texture the glb "
		"does not have",
		"its materials are not in the glb",
		"the joints, helpers or shapes it moves are not nodes of the glb",
		"nothing it animates has a glTF property here (a texture swap, a TEV or "
		"combiner colour, a texture other than the base colour's)",
	};
	const nm_gltf_anim *a = m->anim;
	for (size_t k = 0, c = 0; a && k < a->nanims; k++) {
		const nm_gltf_animation *an = &a->anims[k];
		unsigned why = an->nchannels ? 0 : NO_CHANNEL;
		bool kept = false;
		for (size_t i = 0; i < an->nchannels; i++, c++) {
			kept |= p->anim_target[c] >= 0;
			why |= p->anim_target[c] < 0 ? why_left_out(&an->channels[i]) : 0;
		}
		if (kept)
			continue;
		nm_out line;
		nm_out_init(&line);
		nm_out_printf(&line, "%s: ", an->name);
		for (unsigned r = 0, n = 0; r < sizeof reasons / sizeof *reasons; r++)
			if (why >> r & 1)
				nm_out_printf(&line, "%s%s", n++ ? "; " : "", reasons[r]);
		nm_out_char(&line, '\0');
		if (nm_out_status(&line) == NM_OK)
			nm_kv_str(o, "glb_animation_left_out", (const char *)line.data);
		nm_out_free(&line);
	}
}

nm_status nm_gltf_anim_left_out(const nm_gltf_model *m, nm_out *o, nm_error *err)
{
	if (!m->anim || !m->anim->nanims)
		return NM_OK;
	nm_gltf_plan p;
	nm_status s = nm_gltf_plan_make(m, o->opt, &p, err);
	if (s != NM_OK)
		return s;
	nm_gltf_anim_account(m, &p, o);
	nm_gltf_plan_free(&p);
	return nm_out_status(o);
}

/* A time as written: frame / fps rounded once to float, the same at mount and on read. */
static float frame_time(uint32_t frame, float fps)
{
	return (float)(frame / (double)fps);
}

static const char *const types[] = { "VEC3", "VEC4", "VEC3", "VEC4", "VEC2", "SCALAR",
				     "VEC2", "SCALAR" };

void nm_gltf_anim_accessors(nm_out *o, const nm_gltf_model *m, const nm_gltf_plan *p,
			    bool *first)
{
	if (!p->nanim_accessors)
		return;
	size_t view = p->naccessors + p->nused_images;
	for (size_t k = 0; k < p->ninputs; k++) {
		/* min and max as the exact doubles of the stored floats. */
		nm_out_printf(o, "%s{\"bufferView\":%zu,\"componentType\":%d,\"count\":%u,"
			      "\"type\":\"SCALAR\",\"min\":[0],\"max\":[%.17g]}",
			      *first ? "" : ",", view++, FLOAT, p->in_frames[k],
			      (double)frame_time(p->in_frames[k] - 1, p->in_fps[k]));
		*first = false;
	}
	const nm_gltf_anim *a = m->anim;
	for (size_t k = 0, c = 0; k < a->nanims; k++)
		for (size_t i = 0; i < a->anims[k].nchannels; i++, c++) {
			const nm_gltf_channel *ch = &a->anims[k].channels[i];
			if (p->anim_target[c] < 0)
				continue;
			nm_out_printf(o, ",{\"bufferView\":%zu,\"componentType\":%d,\"count\":%u,"
				      "\"type\":\"%s\"}", view++,
				      ch->path == NM_GLTF_VISIBLE ? UBYTE : FLOAT, ch->frames,
				      types[ch->path]);
		}
}

static void anim_view(nm_out *o, bool *first, uint64_t *off, uint64_t len)
{
	nm_out_printf(o, "%s{\"buffer\":0,\"byteOffset\":%llu,\"byteLength\":%llu}",
		      *first ? "" : ",", (unsigned long long)*off, (unsigned long long)len);
	*off += (len + 3) & ~(uint64_t)3;
	*first = false;
}

void nm_gltf_anim_views(nm_out *o, const nm_gltf_model *m, const nm_gltf_plan *p,
			bool *first, uint64_t *off)
{
	if (!p->nanim_accessors)
		return;
	for (size_t k = 0; k < p->ninputs; k++)
		anim_view(o, first, off, 4 * (uint64_t)p->in_frames[k]);
	const nm_gltf_anim *a = m->anim;
	for (size_t k = 0, c = 0; k < a->nanims; k++)
		for (size_t i = 0; i < a->anims[k].nchannels; i++, c++) {
			const nm_gltf_channel *ch = &a->anims[k].channels[i];
			if (p->anim_target[c] >= 0)
				anim_view(o, first, off, ch->path == NM_GLTF_VISIBLE
					  ? ch->frames : output_bytes(ch));
		}
}

/* The JSON pointer of a material or visibility channel. */
static void pointer(nm_out *o, const nm_gltf_channel *ch, int64_t tg)
{
	static const char *const uv[] = { "offset", "rotation", "scale" };
	nm_out_str(o, "\"path\":\"pointer\",\"extensions\":{\"KHR_animation_pointer\":"
		   "{\"pointer\":\"");
	if (ch->path == NM_GLTF_VISIBLE)
		nm_out_printf(o, "/nodes/%lld/extensions/KHR_node_visibility/visible",
			      (long long)tg);
	else if (ch->path == NM_GLTF_BASE_COLOR)
		nm_out_printf(o, "/materials/%lld/pbrMetallicRoughness/baseColorFactor",
			      (long long)tg);
	else
		nm_out_printf(o, "/materials/%lld/pbrMetallicRoughness/baseColorTexture/"
			      "extensions/KHR_texture_transform/%s", (long long)tg,
			      uv[ch->path - NM_GLTF_UV_OFFSET]);
	nm_out_str(o, "\"}}");
}

void nm_gltf_anim_json(nm_out *o, const nm_gltf_model *m, const nm_gltf_plan *p)
{
	if (!p->nanim_accessors)
		return;
	static const char *const trs[] = { "translation", "rotation", "scale" };
	const nm_gltf_anim *a = m->anim;
	size_t acc0 = p->naccessors, out_acc = acc0 + p->ninputs;
	bool first_anim = true;
	nm_out_str(o, ",\"animations\":[");
	for (size_t k = 0, c0 = 0; k < a->nanims; c0 += a->anims[k].nchannels, k++) {
		const nm_gltf_animation *an = &a->anims[k];
		size_t kept = 0;
		for (size_t i = 0; i < an->nchannels; i++)
			kept += p->anim_target[c0 + i] >= 0;
		if (!kept)
			continue;
		nm_out_printf(o, "%s{\"name\":", first_anim ? "" : ",");
		first_anim = false;
		nm_gltf_json_name(o, an->name);
		nm_out_str(o, ",\"channels\":[");
		for (size_t i = 0, n = 0; i < an->nchannels; i++) {
			const nm_gltf_channel *ch = &an->channels[i];
			int64_t tg = p->anim_target[c0 + i];
			if (tg < 0)
				continue;
			nm_out_printf(o, "%s{\"sampler\":%zu,\"target\":{", n ? "," : "", n);
			n++;
			if (ch->path <= NM_GLTF_SCALE)
				nm_out_printf(o, "\"node\":%lld,\"path\":\"%s\"", (long long)tg,
					      trs[ch->path]);
			else
				pointer(o, ch, tg);
			nm_out_str(o, "}}");
		}
		nm_out_str(o, "],\"samplers\":[");
		for (size_t i = 0, n = 0; i < an->nchannels; i++) {
			const nm_gltf_channel *ch = &an->channels[i];
			if (p->anim_target[c0 + i] < 0)
				continue;
			bool step = ch->step || ch->path == NM_GLTF_VISIBLE;
			nm_out_printf(o, "%s{\"input\":%zu,\"interpolation\":\"%s\",\"output\":%zu}",
				      n++ ? "," : "", acc0 + p->anim_input[c0 + i],
				      step ? "STEP" : "LINEAR", out_acc++);
		}
		nm_out_str(o, "]}");
	}
	nm_out_char(o, ']');
}

/* ---- BIN ------------------------------------------------------------------------- */

/* A sample as glTF wants it: finite, unit quaternions on the previous one's side,
 * colours within 0..1. */
static void mend_sample(enum nm_gltf_path path, float v[4], float prev[4], bool first)
{
	static const float fallback[NM_GLTF_NPATHS] = { 0, 0, 1, 1, 0, 0, 1, 1 };
	unsigned n = nm_gltf_path_components(path);
	for (unsigned k = 0; k < n; k++)
		if (!isfinite(v[k]))
			v[k] = fallback[path];
	if (path == NM_GLTF_BASE_COLOR)
		for (unsigned k = 0; k < 4; k++)
			v[k] = v[k] < 0 ? 0 : v[k] > 1 ? 1 : v[k];
	if (path != NM_GLTF_ROTATION)
		return;
	double len = 0, dot = 0;
	for (int k = 0; k < 4; k++) {
		len += (double)v[k] * v[k];
		dot += (double)v[k] * prev[k];
	}
	len = sqrt(len);
	double sign = !first && dot < 0 ? -1 : 1;
	for (int k = 0; k < 4; k++)
		v[k] = len > 1e-12 ? (float)(sign * v[k] / len) : k == 3;
	memcpy(prev, v, 4 * sizeof *v);
}

static nm_status write_channel(const nm_gltf_anim *a, size_t k, const nm_gltf_channel *ch,
			       nm_out *o, nm_error *err)
{
	float prev[4] = { 0, 0, 0, 1 };
	unsigned n = nm_gltf_path_components(ch->path);
	for (uint32_t f = 0; f < ch->frames; f++) {
		float v[4] = { 0, 0, 0, 0 };
		nm_status s = a->sample(a->ctx, k, ch, f, v, err);
		if (s != NM_OK)
			return s;
		mend_sample(ch->path, v, prev, f == 0);
		if (ch->path == NM_GLTF_VISIBLE)
			nm_out_char(o, v[0] != 0 ? 1 : 0);
		else
			nm_gltf_put_floats(o, v, n);
	}
	if (ch->path == NM_GLTF_VISIBLE) {
		static const uint8_t zero[3] = { 0, 0, 0 };
		nm_out_write(o, zero, (4 - ch->frames % 4) % 4);
	}
	return nm_out_status(o);
}

nm_status nm_gltf_anim_write(const nm_gltf_model *m, const nm_gltf_plan *p, nm_out *o,
			     nm_error *err)
{
	if (!p->nanim_accessors)
		return NM_OK;
	for (size_t k = 0; k < p->ninputs; k++)
		for (uint32_t f = 0; f < p->in_frames[k]; f++) {
			float t = frame_time(f, p->in_fps[k]);
			nm_gltf_put_floats(o, &t, 1);
		}
	const nm_gltf_anim *a = m->anim;
	nm_status s = NM_OK;
	for (size_t k = 0, c0 = 0; k < a->nanims && s == NM_OK;
	     c0 += a->anims[k].nchannels, k++) {
		const nm_gltf_animation *an = &a->anims[k];
		size_t kept = 0;
		for (size_t i = 0; i < an->nchannels; i++)
			kept += p->anim_target[c0 + i] >= 0;
		if (!kept)
			continue;
		if (a->begin && (s = a->begin(a->ctx, k, o->opt, err)) != NM_OK)
			break;
		for (size_t i = 0; i < an->nchannels && s == NM_OK; i++)
			if (p->anim_target[c0 + i] >= 0)
				s = write_channel(a, k, &an->channels[i], o, err);
		if (a->end)
			a->end(a->ctx, k);
	}
	return s;
}
