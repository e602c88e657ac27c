#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "lib/options.h"

#define MIB (UINT64_C(1) << 20)

/* The defaults. */
static const nm_options defaults = {
	.cache_size = 64 * MIB,
	.max_file_size = 1024 * MIB,
	.max_dimension = NM_DIMENSION_MAX,
	.max_depth = 16,
};

/* How each option is written, its unit and range. Sizes are whole MiB on the command
 * line (as mount options always were); the struct holds bytes. */
static const struct spec {
	const char *name;
	size_t offset;
	uint64_t unit;
	const char *metavar;
	uint64_t min, max;      /* in units */
	const char *help;
} specs[] = {
	{ "cache_size", offsetof(nm_options, cache_size), MIB, "MiB", 1, 1u << 20,
	  "memory for decoded files" },
	{ "max_file_size", offsetof(nm_options, max_file_size), MIB, "MiB", 1, 1u << 20,
	  "largest file or buffer decoded" },
	{ "max_dimension", offsetof(nm_options, max_dimension), 1, "PIXELS", 1, NM_DIMENSION_MAX,
	  "largest texture side decoded" },
	{ "max_depth", offsetof(nm_options, max_depth), 1, "LEVELS", 1, 64,
	  "deepest nesting of forms shown" },
};

#define NSPECS (sizeof specs / sizeof specs[0])

static uint64_t *field(nm_options *o, const struct spec *s)
{
	return (uint64_t *)((char *)o + s->offset);
}

static uint64_t value_of(const nm_options *o, const struct spec *s)
{
	return *(const uint64_t *)((const char *)o + s->offset);
}

void nm_options_init(nm_options *o) { *o = defaults; }
const nm_options *nm_options_defaults(void) { return &defaults; }

/* name[0..len) equals spec, a dash matching an underscore. */
static int same_name(const char *name, size_t len, const char *spec)
{
	if (strlen(spec) != len)
		return 0;
	for (size_t i = 0; i < len; i++)
		if (name[i] != spec[i] && !(name[i] == '-' && spec[i] == '_'))
			return 0;
	return 1;
}

nm_status nm_options_parse(nm_options *o, const char *assignment, nm_error *err)
{
	const char *eq = strchr(assignment, '=');
	size_t len = eq ? (size_t)(eq - assignment) : strlen(assignment);
	const struct spec *s = NULL;
	for (size_t i = 0; i < NSPECS && !s; i++)
		if (same_name(assignment, len, specs[i].name))
			s = &specs[i];
	if (!s)
		return nm_fail(err, NM_E_NOENT, NULL, NULL, NM_NO_OFFSET, "no option %.*s",
			       (int)len, assignment);
	char shown[64];
	snprintf(shown, sizeof shown, "%.*s", (int)len, assignment);
	char *end = NULL;
	unsigned long long v = 0;
	if (eq && eq[1] >= '0' && eq[1] <= '9')
		v = strtoull(eq + 1, &end, 10);
	if (!end || *end || v < s->min || v > s->max)
		return nm_fail(err, NM_E_INVAL, shown, NULL, NM_NO_OFFSET,
			       "must be a whole number from %llu to %llu (%s), not \"%s\"",
			       (unsigned long long)s->min, (unsigned long long)s->max, s->metavar,
			       eq ? eq + 1 : "");
	*field(o, s) = v * s->unit;
	return NM_OK;
}

void nm_options_usage(FILE *f, nm_option_style style)
{
	for (size_t i = 0; i < NSPECS; i++) {
		const struct spec *s = &specs[i];
		char flag[64];
		if (style == NM_OPTION_MOUNT) {
			snprintf(flag, sizeof flag, "-o %s=%s", s->name, s->metavar);
		} else {
			int n = snprintf(flag, sizeof flag, "--%s=%s", s->name, s->metavar);
			for (int k = 2; k < n && flag[k] != '='; k++)
				flag[k] = flag[k] == '_' ? '-' : flag[k];
		}
		fprintf(f, "    %-24s %s; default %llu\n", flag, s->help,
			(unsigned long long)(value_of(&defaults, s) / s->unit));
	}
}
