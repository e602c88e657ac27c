/* Value -> name tables. A table is declared with the size of the range of values it
 * names (`static const char *const n[4] = ...`: a longer list does not compile, a
 * shorter one leaves NULLs) and read only through NM_NAME, whose bound is that same
 * size, so no value from a file can index past it. NULL means "no name": callers print
 * the number instead (nm_kv_enum: `unknown (0x2a)`). */
#ifndef NM_NAMES_H
#define NM_NAMES_H

#include <stddef.h>
#include <stdint.h>

/* Elements of an array. Does not compile for a pointer, whose sizeof says nothing about
 * the table behind it. */
#define NM_COUNT(a)                                                                     \
	(sizeof(a) / sizeof((a)[0]) +                                                   \
	 0 * sizeof(struct {                                                            \
		 _Static_assert(!__builtin_types_compatible_p(__typeof__(a),            \
							      __typeof__(&(a)[0])),     \
				"NM_COUNT needs an array, not a pointer");              \
		 char c;                                                                \
	 }))

/* tab[v], or NULL when v is past the table or has no entry there. v may be negative or
 * an offset that wrapped below the table's first value: both are past the end. */
#define NM_NAME(tab, v) nm_name_at((tab), NM_COUNT(tab), (uint64_t)(v))

static inline const char *nm_name_at(const char *const *tab, size_t n, uint64_t v)
{
	return v < n ? tab[v] : NULL;
}

#endif
