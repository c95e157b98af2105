/* parens_input.h: reading the input of `canopy parens` (parens_input.c).
 *
 * The input is ASCII '(' and ')' bytes, one trailing newline allowed, at most
 * CN_PARENS_MAX_N elements. Reading stops at the first byte that is neither
 * (so /dev/zero fails at byte 0, not after gigabytes), at the limit (a
 * regular file over it is refused from its size before anything is read),
 * and on a read error. */
#ifndef CN_CLI_PARENS_INPUT_H
#define CN_CLI_PARENS_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The offset of the first byte of p[0..n) that is not '(' or ')', or n. */
size_t cli_parens_scan(const uint8_t *p, size_t n);

/* Reads the elements from f (named name in messages) into *data (malloc'ed,
 * NULL when empty; *n elements, the trailing newline dropped). Elements past
 * max fail. On failure writes "name: what (and where)" into err and returns
 * non-zero with *data NULL. */
int cli_parens_read(FILE *f, const char *name, uint64_t max, uint8_t **data, size_t *n, char *err, size_t err_len);

#endif
