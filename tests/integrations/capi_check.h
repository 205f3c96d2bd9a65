/* What the single-threaded C API tests share: CHECK counts a failed condition and says where,
 * with the last error; main returns non-zero when `failures` is. */
#ifndef ISOTERRA_TESTS_CAPI_CHECK_H
#define ISOTERRA_TESTS_CAPI_CHECK_H

#include <stdio.h>

#include "isoterra/isoterra.h"

static int failures = 0;
#define CHECK(cond)                                                                                                    \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            fprintf(stderr, "%s:%d: failed: %s (last error: %s)\n", __FILE__, __LINE__, #cond, isoterra_last_error()); \
            failures++;                                                                                                \
        }                                                                                                              \
    } while (0)

#endif
