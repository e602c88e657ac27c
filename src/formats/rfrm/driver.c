/* The two Tropical Freeze drivers: any RFRM asset (a model, a texture, or any other
 * form as its chunk tree), and PAK archives. Probing looks at the form header only. */
#include <string.h>
#include "formats/rfrm/rfrm.h"

static bool rfrm_probe(const uint8_t *head, size_t len, uint64_t size)
{
	return len >= RFRM_FORM_LEN && size >= RFRM_FORM_LEN && memcmp(head, "RFRM", 4) == 0;
}

static nm_status rfrm_build(nm_reader *r, nm_tree *t, nm_node *dir, nm_error *err)
{
	return rfrm_build_asset(r, t, dir, NULL, 0, NULL, err);
}

const nm_driver nm_driver_rfrm = {
	.name = "rfrm",
	.description = "Tropical Freeze RFRM asset",
	.probe = rfrm_probe,
	.build = rfrm_build,
};

/* Registered before rfrm_probe (registry.c): a PAK is an RFRM form of type PACK. */
static bool pak_probe(const uint8_t *head, size_t len, uint64_t size)
{
	return rfrm_probe(head, len, size) && memcmp(head + 0x14, "PACK", 4) == 0;
}

const nm_driver nm_driver_rfrm_pak = {
	.name = "pak",
	.description = "Tropical Freeze PAK archive",
	.probe = pak_probe,
	.build = rfrm_build_pak,
	.archive = true,
};
