/* Limits and options: one nm_options per tree, given to nm_open_model (or nm_tree_new) and
 * kept, copied, in the tree for its whole life; nothing process-wide. Every front end
 * reads the same options from text through nm_options_parse:
 *   mount.nmodel -o max_file_size=16      nmodel --max-file-size=16
 * The defaults, units, ranges and help texts are one table in options.c. */
#ifndef NM_OPTIONS_H
#define NM_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "lib/error.h"

/* The largest texture side anything here decodes (and so the largest max_dimension):
 * it keeps every pixel count times 4 bytes below 2^32, so size arithmetic cannot wrap
 * even where size_t is 32 bits. */
#define NM_DIMENSION_MAX 16384u

typedef struct nm_options {
	uint64_t cache_size;     /* bytes of produced files the cache keeps (the file being
				    read is always kept, however large) */
	uint64_t max_file_size;  /* bytes: the largest file a producer may make, and the
				    largest buffer the model's data may size (nm_alloc) */
	uint64_t max_dimension;  /* texture width or height beyond which nothing is decoded */
	uint64_t max_depth;      /* nesting beyond which a tree is not shown (forms in forms) */
	/* Not an option but a front end's hook, NULL in the defaults: called on a thread
	 * about to run or wait for work that may take milliseconds (a producer, a lazy
	 * directory's populate), before it starts. mount.nmodel's loop hands the waiting
	 * for requests to another thread (fuse/loop.c). */
	void (*before_long_work)(void);
	/* Not an option either: set by a front end that writes edits back (nmodel apply).
	 * Drivers then give their record files inverses (lib/edit.h); false, they make
	 * nothing for it. */
	bool editable;
} nm_options;

/* Call o's before_long_work hook, if any. */
static inline void nm_before_long_work(const nm_options *o)
{
	if (o->before_long_work)
		o->before_long_work();
}

/* The defaults of the table. */
void nm_options_init(nm_options *o);
const nm_options *nm_options_defaults(void);

/* Set one option from "name=value": name as the table spells it (max_file_size) or with
 * dashes (max-file-size); value a whole number in the option's unit (MiB for sizes).
 * NM_E_NOENT when name is not one of ours (mount.nmodel passes it on to libfuse);
 * NM_E_INVAL, with err naming the option and its range, for a bad value. */
nm_status nm_options_parse(nm_options *o, const char *assignment, nm_error *err);

/* Help lines, one per option, with its default: "-o max_file_size=MiB ..." for mount
 * options, "--max-file-size=MiB ..." for command-line flags. */
typedef enum nm_option_style { NM_OPTION_MOUNT, NM_OPTION_FLAG } nm_option_style;
void nm_options_usage(FILE *f, nm_option_style style);

#endif
